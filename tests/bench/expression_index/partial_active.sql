\set id random(1, 99000)
SELECT id FROM bx_users WHERE active AND id BETWEEN :id AND :id + 200;
