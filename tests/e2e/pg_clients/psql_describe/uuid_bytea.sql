-- psql's \d of uuid and bytea columns: the type names, a gen_random_uuid() default, a uuid
-- primary key, a bytea default and a unique index over a bytea column.
CREATE TABLE account (
  id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
  owner UUID NOT NULL,
  avatar BYTEA,
  salt BYTEA DEFAULT '\x00ff'::bytea
);
CREATE UNIQUE INDEX account_avatar ON account (avatar);
\d account
\d account_avatar
