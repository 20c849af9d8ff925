\set id random(1, 100000)
SELECT id FROM bx_docs WHERE j->>'k' = 'v' || :id;
