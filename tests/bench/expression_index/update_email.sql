\set id random(1, 100000)
UPDATE bx_users SET email = 'User' || :id || '@Example.com' WHERE id = :id;
