\set id random(1, 100000)
SELECT id FROM bx_users WHERE lower(email) = 'user' || :id || '@example.com';
