\set id random(1, 99000)
SELECT id FROM bx_users WHERE lower(email) > 'user' || :id ORDER BY lower(email) LIMIT 5;
