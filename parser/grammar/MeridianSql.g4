// Meridian's SQL grammar (a PostgreSQL subset). Expressions are written as one rule per
// precedence level, lowest first, following PostgreSQL's operator precedence table. Keywords are
// case-insensitive; only the keywords listed in `nonReservedKeyword` may be used as identifiers.
grammar MeridianSql;

@lexer::members {
  // DOLLAR_STRING's action: the opening delimiter (two dollars around an optional tag) has been matched; consumes the
  // body and the same delimiter, or everything up to the end of input, which makes the token an
  // UNTERMINATED_DOLLAR_STRING. Keeps the lexer's line and column right across the body.
  void ConsumeDollarBody() {
    const size_t n = getCharIndex() - tokenStartCharIndex;
    std::vector<size_t> open(n);
    for (size_t i = 0; i < n; ++i) open[i] = _input->LA(-static_cast<ssize_t>(n - i));
    auto* sim = getInterpreter<antlr4::atn::LexerATNSimulator>();
    while (_input->LA(1) != antlr4::Token::EOF) {
      bool closes = true;
      for (size_t i = 0; i < n && closes; ++i) {
        closes = _input->LA(static_cast<ssize_t>(i + 1)) == open[i];
      }
      if (closes) {
        for (size_t i = 0; i < n; ++i) _input->consume();
        sim->setCharPositionInLine(sim->getCharPositionInLine() + n);
        return;
      }
      if (_input->LA(1) == '\n') {
        sim->setLine(sim->getLine() + 1);
        sim->setCharPositionInLine(0);
      } else {
        sim->setCharPositionInLine(sim->getCharPositionInLine() + 1);
      }
      _input->consume();
    }
    setType(UNTERMINATED_DOLLAR_STRING);
  }
}

// ---------------------------------------------------------------------------------- entry points

script : statement? (SEMI statement?)* EOF ;

standaloneExpr : expr EOF ;

statement
  : selectStmt
  | insertStmt
  | updateStmt
  | deleteStmt
  | createTableStmt
  | createTableAsStmt
  | alterTableStmt
  | truncateStmt
  | dropTableStmt
  | createViewStmt
  | dropViewStmt
  | createIndexStmt
  | dropIndexStmt
  | explainStmt
  | analyzeStmt
  | vacuumStmt
  | setStmt
  | showStmt
  | resetStmt
  | copyStmt
  | transactionStmt
  | prepareStmt
  | executeStmt
  | deallocateStmt
  | createSequenceStmt
  | alterSequenceStmt
  | dropSequenceStmt
  | createSchemaStmt
  | dropSchemaStmt
  | alterSchemaStmt
  | lockStmt
  ;

// ---------------------------------------------------------------------------------------- SELECT

// A query: set operations over SELECT cores (INTERSECT binds tighter than UNION and EXCEPT,
// as in PostgreSQL), then ORDER BY / LIMIT / OFFSET for the whole. The row-locking clause
// (FOR UPDATE ...) goes after LIMIT / OFFSET or, as PostgreSQL also accepts, before them.
selectStmt
  : withClause? selectSet
    (K_ORDER K_BY orderItem (COMMA orderItem)*)?
    ( lockingClause (limitClause offsetClause? | offsetClause limitClause?)?
    | (limitClause offsetClause? | offsetClause limitClause?) lockingClause?
    )?
  ;

withClause : K_WITH K_RECURSIVE? commonTableExpr (COMMA commonTableExpr)* ;

// The body is a query or, data-modifying, an INSERT / UPDATE / DELETE (the transformer
// allows those only in the WITH list of the request's top-level statement).
commonTableExpr
  : identifier (LPAREN identifier (COMMA identifier)* RPAREN)? K_AS
    LPAREN (selectStmt | insertStmt | updateStmt | deleteStmt) RPAREN
  ;

selectSet : selectTerm (setOperator selectTerm)* ;

setOperator : (K_UNION | K_EXCEPT) (K_ALL | K_DISTINCT)? ;

selectTerm : selectPrimary (K_INTERSECT (K_ALL | K_DISTINCT)? selectPrimary)* ;

selectPrimary : selectCore | valuesClause | LPAREN selectStmt RPAREN ;

// DISTINCT, or DISTINCT ON (expr, ...): the first row of each group of equal expressions.
distinctClause : K_DISTINCT (K_ON LPAREN expr (COMMA expr)* RPAREN)? ;

// VALUES (...), (...) as a query (in FROM, in set operations, alone): rows of expressions.
valuesClause : K_VALUES valuesRow (COMMA valuesRow)* ;

selectCore
  : K_SELECT (distinctClause | K_ALL)? selectItem (COMMA selectItem)*
    (K_FROM fromItem (COMMA fromItem)*)?
    (K_WHERE where=expr)?
    (K_GROUP K_BY groupByList)?
    (K_HAVING having=expr)?
    (K_WINDOW windowDef (COMMA windowDef)*)?
  ;

// GROUP BY [ALL | DISTINCT] element, ...: an element is an expression, (), (a, b),
// ROLLUP (...), CUBE (...) or GROUPING SETS (...) (nested); the alternatives before `expr`
// win its ambiguities (`rollup(a)` is ROLLUP, not a function call), as in PostgreSQL.
groupByList : (K_ALL | K_DISTINCT)? groupingElement (COMMA groupingElement)* ;

groupingElement
  : LPAREN RPAREN
  | K_ROLLUP LPAREN groupingItem (COMMA groupingItem)* RPAREN
  | K_CUBE LPAREN groupingItem (COMMA groupingItem)* RPAREN
  | K_GROUPING K_SETS LPAREN groupingElement (COMMA groupingElement)* RPAREN
  | LPAREN expr COMMA expr (COMMA expr)* RPAREN
  | expr
  ;

// One item of ROLLUP / CUBE: an expression or a parenthesized list grouped as a unit.
groupingItem : LPAREN expr COMMA expr (COMMA expr)* RPAREN | expr ;

// WINDOW w AS (spec): a named window that OVER w / OVER (w ...) refer to.
windowDef : identifier K_AS LPAREN windowSpec RPAREN ;

// OVER w | OVER ([w] [PARTITION BY ...] [ORDER BY ...] [frame]).
overClause : K_OVER (LPAREN windowSpec RPAREN | identifier) ;

windowSpec
  : existing=identifier? (K_PARTITION K_BY expr (COMMA expr)*)?
    (K_ORDER K_BY orderItem (COMMA orderItem)*)? frameClause?
  ;

// {RANGE | ROWS | GROUPS} {start | BETWEEN start AND end} [EXCLUDE ...]: the transformer
// checks the bounds' order as PostgreSQL's grammar does; the binder refuses what is not built.
frameClause
  : frameMode=(K_RANGE | K_ROWS | K_GROUPS) (frameBound | K_BETWEEN frameBound K_AND frameBound)
    frameExclusion?
  ;

// UNBOUNDED comes first so `unbounded preceding` is never read as a column named unbounded.
frameBound
  : K_UNBOUNDED (K_PRECEDING | K_FOLLOWING)
  | K_CURRENT K_ROW
  | expr (K_PRECEDING | K_FOLLOWING)
  ;

frameExclusion : K_EXCLUDE (K_CURRENT K_ROW | K_GROUP | K_TIES | K_NO K_OTHERS) ;

selectItem
  : STAR                                      # selectStar
  | identifier DOT STAR                       # selectQualifiedStar
  | expr (K_AS columnLabel | identifier)?     # selectExpr
  ;

tableRef
  : qualifiedName (K_AS? identifier
    (LPAREN identifier (COMMA identifier)* RPAREN)?)?                       # namedTableRef
  | K_LATERAL? qualifiedName LPAREN (expr (COMMA expr)*)? RPAREN (K_WITH K_ORDINALITY)?
    (K_AS? identifier (LPAREN identifier (COMMA identifier)* RPAREN)?)?     # functionTableRef
  | K_LATERAL? LPAREN selectStmt RPAREN (K_AS? identifier
    (LPAREN identifier (COMMA identifier)* RPAREN)?)?                       # subqueryTableRef
  | LPAREN tableRef joinClause+ RPAREN (K_AS? identifier)?                  # joinedTableRef
  ;

// A chain of joins, left-deep: t1 JOIN t2 ON ... LEFT JOIN t3 USING (c) CROSS JOIN t4.
fromItem : tableRef joinClause* ;

joinClause
  : K_CROSS K_JOIN tableRef                                                  # crossJoin
  | joinType? K_JOIN tableRef
    (K_ON expr | K_USING LPAREN identifier (COMMA identifier)* RPAREN)       # qualifiedJoin
  ;

joinType : K_INNER | (K_LEFT | K_RIGHT | K_FULL) K_OUTER? ;

orderItem : expr (K_ASC | K_DESC)? (K_NULLS (K_FIRST | K_LAST))? ;

limitClause : K_LIMIT (expr | K_ALL) ;

offsetClause : K_OFFSET expr ;

// FOR {UPDATE | NO KEY UPDATE | SHARE | KEY SHARE} [OF t [, ...]] [NOWAIT | SKIP LOCKED], repeated;
// or FOR READ ONLY, which locks nothing.
lockingClause : lockingItem+ | K_FOR K_READ K_ONLY ;

lockingItem
  : K_FOR lockingStrength (K_OF qualifiedName (COMMA qualifiedName)*)? (K_NOWAIT | K_SKIP K_LOCKED)?
  ;

lockingStrength : K_UPDATE | K_NO K_KEY K_UPDATE | K_SHARE | K_KEY K_SHARE ;

// ------------------------------------------------------------------------- INSERT, UPDATE, DELETE

// The source is one query; a bare VALUES list (the common INSERT ... VALUES) is recognised by
// the transformer. (A separate VALUES alternative here would be ambiguous with a query that
// starts with VALUES, and ANTLR would then look ahead through every row to decide.)
insertStmt
  : withClause? K_INSERT K_INTO target=qualifiedName (K_AS alias=identifier)?
    (LPAREN columnTarget (COMMA columnTarget)* RPAREN)?
    (K_OVERRIDING overriding=identifier K_VALUE)? (selectStmt | K_DEFAULT K_VALUES)
    onConflictClause? returningClause?
  ;

// ON CONFLICT [(col, ...) | ON CONSTRAINT name] DO NOTHING | DO UPDATE SET ... [WHERE ...]
onConflictClause
  : K_ON K_CONFLICT conflictTarget? K_DO
    (K_NOTHING | K_UPDATE K_SET assignment (COMMA assignment)* (K_WHERE expr)?)
  ;

conflictTarget
  : LPAREN indexElem (COMMA indexElem)* RPAREN (K_WHERE expr)?
  | K_ON K_CONSTRAINT identifier
  ;

// RETURNING expr [[AS] name], ... | *: the rows an INSERT, UPDATE or DELETE wrote.
returningClause : K_RETURNING selectItem (COMMA selectItem)* ;

valuesRow : LPAREN valueItem (COMMA valueItem)* RPAREN ;

// A bare literal (the common case of long INSERT ... VALUES lists) has its own alternative: it
// skips the dozen expression levels a literal otherwise goes through, which made parsing such
// lists the most of a bulk INSERT's time. A literal followed by an operator is an expr.
valueItem : K_DEFAULT | literal | expr ;

// [WITH ...] UPDATE t [[AS] alias] SET ... [FROM item, ...] [WHERE ...] [RETURNING ...]
updateStmt
  : withClause? K_UPDATE K_ONLY? target=qualifiedName (K_AS? alias=identifier)? K_SET assignment (COMMA assignment)*
    (K_FROM fromItem (COMMA fromItem)*)? (K_WHERE expr)? returningClause?
  ;

// col[i] = v and col[i:j] = array assign into an array column.
assignment : columnTarget EQ (K_DEFAULT | expr) ;

// A column as the target of an assignment or an INSERT column list: col, col[i], col[i:j],
// col.field (the last only to be refused: no column type here is composite).
columnTarget : identifier (subscript | DOT identifier)* ;

// [WITH ...] DELETE FROM t [[AS] alias] [USING item, ...] [WHERE ...] [RETURNING ...]
deleteStmt
  : withClause? K_DELETE K_FROM K_ONLY? target=qualifiedName (K_AS? alias=identifier)?
    (K_USING fromItem (COMMA fromItem)*)? (K_WHERE expr)? returningClause?
  ;

// --------------------------------------------------------------------------- CREATE TABLE, DROP

createTableStmt
  : K_CREATE (K_TEMP | K_TEMPORARY)? K_TABLE (K_IF K_NOT K_EXISTS)? qualifiedName
    LPAREN tableElement (COMMA tableElement)* RPAREN
    (K_WITH LPAREN storageParameter (COMMA storageParameter)* RPAREN)? onCommitClause?
  ;

// A TEMP table's ON COMMIT PRESERVE ROWS | DELETE ROWS | DROP.
onCommitClause : K_ON K_COMMIT (K_PRESERVE K_ROWS | K_DELETE K_ROWS | K_DROP) ;

// WITH (fillfactor = 90, autovacuum_enabled = off, ...): checked and not stored.
storageParameter
  : identifier (DOT identifier)? (EQ (signedNumber | identifier | STRING_LITERAL | K_TRUE | K_FALSE | K_ON))?
  ;

tableElement : columnDef | tableConstraint ;

columnDef : identifier typeName columnConstraint* ;

columnConstraint : (K_CONSTRAINT identifier)? columnConstraintBody ;

columnConstraintBody
  : K_NOT K_NULL            # notNullConstraint
  | K_NULL                  # nullConstraint
  | K_DEFAULT expr          # defaultConstraint
  | K_PRIMARY K_KEY         # primaryKeyConstraint
  | K_UNIQUE                # uniqueConstraint
  | K_CHECK LPAREN expr RPAREN  # checkConstraint
  | referencesClause        # referencesConstraint
  | K_GENERATED (K_ALWAYS | K_BY K_DEFAULT) K_AS K_IDENTITY
    (LPAREN sequenceOption+ RPAREN)?  # identityConstraint
  ;

tableConstraint : (K_CONSTRAINT identifier)? tableConstraintBody ;

tableConstraintBody
  : K_PRIMARY K_KEY LPAREN identifier (COMMA identifier)* RPAREN   # primaryKeyTableConstraint
  | K_UNIQUE LPAREN identifier (COMMA identifier)* RPAREN          # uniqueTableConstraint
  | K_CHECK LPAREN expr RPAREN                                     # checkTableConstraint
  | K_FOREIGN K_KEY LPAREN identifier (COMMA identifier)* RPAREN
    referencesClause                                               # foreignKeyTableConstraint
  ;

// REFERENCES t [(columns)] [MATCH ...] [ON DELETE|UPDATE action]... [[NOT] DEFERRABLE]
// [INITIALLY DEFERRED|IMMEDIATE] (a foreign key; DEFERRABLE is refused by the engine).
referencesClause
  : K_REFERENCES qualifiedName (LPAREN identifier (COMMA identifier)* RPAREN)?
    (K_MATCH (K_FULL | K_SIMPLE | K_PARTIAL))?
    referentialTrigger* constraintTiming*
  ;

referentialTrigger : K_ON (K_DELETE | K_UPDATE) referentialAction ;

referentialAction
  : K_CASCADE | K_RESTRICT | K_NO K_ACTION | K_SET K_NULL | K_SET K_DEFAULT ;

constraintTiming : K_NOT? K_DEFERRABLE | K_INITIALLY (K_DEFERRED | K_IMMEDIATE) ;

// CREATE TABLE t [(names)] AS query [WITH [NO] DATA].
createTableAsStmt
  : K_CREATE (K_TEMP | K_TEMPORARY)? K_TABLE (K_IF K_NOT K_EXISTS)? qualifiedName
    (LPAREN identifier (COMMA identifier)* RPAREN)? onCommitClause? K_AS selectStmt (K_WITH K_NO? K_DATA)?
  ;

// ALTER TABLE [IF EXISTS] t action [, ...] | RENAME [COLUMN] a TO b | RENAME TO n.
alterTableStmt
  : K_ALTER K_TABLE (K_IF K_EXISTS)? K_ONLY? table=qualifiedName
    ( alterTableAction (COMMA alterTableAction)*
    | K_RENAME K_COLUMN? from=identifier K_TO to=identifier
    | K_RENAME K_CONSTRAINT from=identifier K_TO to=identifier
    | K_RENAME K_TO to=identifier
    )
  ;

alterTableAction
  : K_ADD K_COLUMN? (K_IF K_NOT K_EXISTS)? columnDef                          # addColumnAction
  | K_ADD tableConstraint                                                     # addConstraintAction
  | K_DROP K_COLUMN? (K_IF K_EXISTS)? identifier (K_CASCADE | K_RESTRICT)?    # dropColumnAction
  | K_DROP K_CONSTRAINT (K_IF K_EXISTS)? identifier (K_CASCADE | K_RESTRICT)? # dropConstraintAction
  | K_ALTER K_COLUMN? identifier
    ( K_SET K_DEFAULT expr | K_DROP K_DEFAULT | K_SET K_NOT K_NULL | K_DROP K_NOT K_NULL
    )                                                                         # alterColumnAction
  ;

dropTableStmt
  : K_DROP K_TABLE (K_IF K_EXISTS)? qualifiedName (COMMA qualifiedName)* (K_CASCADE | K_RESTRICT)?
  ;

// CREATE [OR REPLACE] [TEMP | TEMPORARY] VIEW v [(names)] AS query; DROP VIEW [IF EXISTS] v, ...
createViewStmt
  : K_CREATE (K_OR K_REPLACE)? (K_TEMP | K_TEMPORARY)? K_VIEW qualifiedName
    (LPAREN identifier (COMMA identifier)* RPAREN)? K_AS selectStmt
  ;

dropViewStmt
  : K_DROP K_VIEW (K_IF K_EXISTS)? qualifiedName (COMMA qualifiedName)* (K_CASCADE | K_RESTRICT)?
  ;

// CREATE SCHEMA [IF NOT EXISTS] {name [AUTHORIZATION role] | AUTHORIZATION role};
// DROP SCHEMA [IF EXISTS] name, ... [CASCADE | RESTRICT]; ALTER SCHEMA a RENAME TO b.
createSchemaStmt
  : K_CREATE K_SCHEMA (K_IF K_NOT K_EXISTS)?
    (name=identifier (K_AUTHORIZATION role=identifier)? | K_AUTHORIZATION role=identifier)
  ;

dropSchemaStmt
  : K_DROP K_SCHEMA (K_IF K_EXISTS)? identifier (COMMA identifier)* (K_CASCADE | K_RESTRICT)?
  ;

alterSchemaStmt : K_ALTER K_SCHEMA from=identifier K_RENAME K_TO to=identifier ;

truncateStmt : K_TRUNCATE K_TABLE? K_ONLY? qualifiedName (COMMA qualifiedName)* ;

// LOCK [TABLE] [ONLY] name [*] [, ...] [IN lockmode MODE] [NOWAIT]
lockStmt
  : K_LOCK K_TABLE? lockTarget (COMMA lockTarget)* (K_IN lockMode K_MODE)? K_NOWAIT?
  ;

lockTarget : K_ONLY? qualifiedName STAR? ;

lockMode
  : K_ACCESS K_SHARE | K_ROW K_SHARE | K_ROW K_EXCLUSIVE | K_SHARE K_UPDATE K_EXCLUSIVE
  | K_SHARE K_ROW K_EXCLUSIVE | K_SHARE | K_EXCLUSIVE | K_ACCESS K_EXCLUSIVE
  ;

// ------------------------------------------------------------------------------------ sequences

// CREATE [TEMP] SEQUENCE [IF NOT EXISTS] s [options]; ALTER SEQUENCE [IF EXISTS] s options;
// DROP SEQUENCE [IF EXISTS] s, ... [CASCADE | RESTRICT].
createSequenceStmt
  : K_CREATE (K_TEMP | K_TEMPORARY)? K_SEQUENCE (K_IF K_NOT K_EXISTS)? qualifiedName
    sequenceOption*
  ;

alterSequenceStmt : K_ALTER K_SEQUENCE (K_IF K_EXISTS)? qualifiedName sequenceOption+ ;

dropSequenceStmt
  : K_DROP K_SEQUENCE (K_IF K_EXISTS)? qualifiedName (COMMA qualifiedName)*
    (K_CASCADE | K_RESTRICT)?
  ;

sequenceOption
  : K_AS typeName                                       # seqAsOption
  | K_INCREMENT K_BY? signedNumber                      # seqIncrementOption
  | K_MINVALUE signedNumber                             # seqMinOption
  | K_NO K_MINVALUE                                     # seqNoMinOption
  | K_MAXVALUE signedNumber                             # seqMaxOption
  | K_NO K_MAXVALUE                                     # seqNoMaxOption
  | K_START K_WITH? signedNumber                        # seqStartOption
  | K_RESTART (K_WITH? signedNumber)?                   # seqRestartOption
  | K_CACHE signedNumber                                # seqCacheOption
  | K_NO? K_CYCLE                                       # seqCycleOption
  | K_OWNED K_BY identifier (DOT identifier)*           # seqOwnedByOption
  ;

signedNumber : (PLUS | MINUS)? (INTEGER_LITERAL | DECIMAL_LITERAL) ;

// ------------------------------------------------------------------- indexes, EXPLAIN, ANALYZE

createIndexStmt
  : K_CREATE K_UNIQUE? K_INDEX ((K_IF K_NOT K_EXISTS)? name=identifier)? K_ON K_ONLY? table=qualifiedName
    (K_USING method=identifier)? LPAREN indexColumn (COMMA indexColumn)* RPAREN
    (K_WHERE where=expr)?
  ;

// A key column, or PostgreSQL's index_elem expressions: (expr) or a function call (the
// transformer refuses any other primary).
indexColumn : indexElem (K_ASC | K_DESC)? (K_NULLS (K_FIRST | K_LAST))? ;

indexElem : identifier | LPAREN expr RPAREN | primary ;

dropIndexStmt : K_DROP K_INDEX (K_IF K_EXISTS)? qualifiedName (COMMA qualifiedName)* ;

// EXPLAIN [ANALYZE] [VERBOSE] statement | EXPLAIN (option [value], ...) statement.
explainStmt
  : K_EXPLAIN (K_ANALYZE? K_VERBOSE? | LPAREN explainOption (COMMA explainOption)* RPAREN)
    statement
  ;

explainOption
  : (K_ANALYZE | K_VERBOSE | identifier) (K_TRUE | K_FALSE | K_ON | signedNumber | identifier)?
  ;

// ANALYZE [VERBOSE] [t [, ...]]; VACUUM [(option [value], ...)] [FULL] [FREEZE] [VERBOSE]
// [ANALYZE] [t [, ...]] (the options are checked by the transformer).
analyzeStmt : K_ANALYZE K_VERBOSE? (qualifiedName (COMMA qualifiedName)*)? ;

vacuumStmt
  : K_VACUUM (LPAREN vacuumOption (COMMA vacuumOption)* RPAREN)?
    K_FULL? K_FREEZE? K_VERBOSE? K_ANALYZE? (qualifiedName (COMMA qualifiedName)*)?
  ;

vacuumOption
  : (K_ANALYZE | K_FULL | K_VERBOSE | K_FREEZE | identifier)
    (K_TRUE | K_FALSE | K_ON | signedNumber | identifier)?
  ;

// [schema.]name: a table in FROM or COPY, a type, a function, a collation.
qualifiedName : identifier (DOT identifier)? ;

// ------------------------------------------------------------------ SET, SHOW, RESET, COPY

// SET [SESSION | LOCAL] name {TO | =} {value [, ...] | DEFAULT}; SET TIME ZONE value.
setStmt
  : K_SET (K_SESSION | K_LOCAL)? K_TIME K_ZONE (setValue | K_DEFAULT)                 # setTimeZone
  | K_SET (K_SESSION | K_LOCAL)? configName (K_TO | EQ)
    (K_DEFAULT | setValue (COMMA setValue)*)                                          # setConfig
  ;

configName : identifier (DOT identifier)* ;

setValue
  : STRING_LITERAL
  | (PLUS | MINUS)? (INTEGER_LITERAL | DECIMAL_LITERAL)
  | identifier
  | K_ON | K_TRUE | K_FALSE
  ;

// SHOW / RESET TRANSACTION ISOLATION LEVEL stand for the transaction_isolation parameter.
showStmt : K_SHOW (K_ALL | K_TIME K_ZONE | K_TRANSACTION K_ISOLATION K_LEVEL | configName) ;

resetStmt : K_RESET (K_ALL | K_TIME K_ZONE | K_TRANSACTION K_ISOLATION K_LEVEL | configName) ;

// COPY table [(columns)] FROM STDIN | COPY {table [(columns)] | (query)} TO STDOUT, with
// options in parentheses or in the pre-9.0 form (CSV HEADER DELIMITER ',' NULL '').
copyStmt
  : K_COPY (qualifiedName (LPAREN identifier (COMMA identifier)* RPAREN)? | LPAREN selectStmt RPAREN)
    (K_FROM | K_TO) (identifier | STRING_LITERAL)
    K_WITH? (LPAREN copyOption (COMMA copyOption)* RPAREN | copyLegacyOption*)
  ;

copyOption : (identifier | K_NULL | K_DEFAULT) copyOptionValue? ;

copyOptionValue : STRING_LITERAL | identifier | K_TRUE | K_FALSE | K_ON | INTEGER_LITERAL ;

copyLegacyOption : (identifier | K_NULL) K_AS? STRING_LITERAL? ;

// ------------------------------------------------------------------------- transaction control

// PostgreSQL's transaction statements. SET TRANSACTION and SET SESSION CHARACTERISTICS differ
// from setStmt's `SET [SESSION] name {TO | =}` by the word after TRANSACTION / CHARACTERISTICS.
transactionStmt
  : K_BEGIN (K_WORK | K_TRANSACTION)? transactionModeList?                     # txBegin
  | K_START K_TRANSACTION transactionModeList?                                 # txBegin
  | (K_COMMIT | K_END) (K_WORK | K_TRANSACTION)? transactionChain?             # txCommit
  | (K_ROLLBACK | K_ABORT) (K_WORK | K_TRANSACTION)? transactionChain?         # txRollback
  | K_SAVEPOINT identifier                                                     # txSavepoint
  | K_RELEASE K_SAVEPOINT? identifier                                          # txRelease
  | K_ROLLBACK (K_WORK | K_TRANSACTION)? K_TO K_SAVEPOINT? identifier          # txRollbackTo
  | K_SET (K_SESSION | K_LOCAL)? K_TRANSACTION transactionModeList             # txSetTransaction
  | K_SET K_SESSION K_CHARACTERISTICS K_AS K_TRANSACTION transactionModeList   # txSetSessionDefaults
  ;

// AND NO CHAIN is the default; AND CHAIN is refused by the transformer (not supported).
transactionChain : K_AND K_NO? K_CHAIN ;

// Modes separated by commas or just by spaces, as in PostgreSQL.
transactionModeList : transactionMode (COMMA? transactionMode)* ;

transactionMode
  : K_ISOLATION K_LEVEL isolationLevel   # isolationMode
  | K_READ (K_ONLY | K_WRITE)            # accessMode
  | K_NOT? K_DEFERRABLE                  # deferrableMode
  ;

isolationLevel
  : K_SERIALIZABLE
  | K_REPEATABLE K_READ
  | K_READ (K_COMMITTED | K_UNCOMMITTED)
  ;

// ---------------------------------------------------------------- PREPARE, EXECUTE, DEALLOCATE

// PREPARE name [(type [, ...])] AS statement, where the statement is one PostgreSQL can prepare.
prepareStmt
  : K_PREPARE identifier (LPAREN typeName (COMMA typeName)* RPAREN)? K_AS preparableStmt
  ;

preparableStmt : selectStmt | insertStmt | updateStmt | deleteStmt ;

// EXECUTE name [(expr [, ...])]: an empty list `()` is a syntax error, as in PostgreSQL.
executeStmt : K_EXECUTE identifier (LPAREN expr (COMMA expr)* RPAREN)? ;

// DEALLOCATE [PREPARE] {name | ALL}; `DEALLOCATE prepare` names a statement called "prepare".
deallocateStmt : K_DEALLOCATE K_PREPARE? (K_ALL | identifier) ;

// A type, possibly an array of it: `int[]`, `text[3]`, `integer ARRAY`.
typeName : simpleTypeName (arrayBounds+ | K_ARRAY arrayBounds?)? ;

arrayBounds : LBRACKET INTEGER_LITERAL? RBRACKET ;

// NUMERIC(p, s) takes two modifiers; TIMESTAMP [(p)] WITH[OUT] TIME ZONE a zone clause.
simpleTypeName
  : K_DOUBLE K_PRECISION
  | K_CHARACTER K_VARYING (LPAREN INTEGER_LITERAL RPAREN)?
  | qualifiedName (LPAREN INTEGER_LITERAL (COMMA scale=signedInteger)? RPAREN)?
    ((K_WITH | K_WITHOUT) K_TIME K_ZONE)?
  ;

signedInteger : MINUS? INTEGER_LITERAL ;

// ----------------------------------------------------------------------------------- expressions

expr : orExpr ;

orExpr : andExpr (K_OR andExpr)* ;

andExpr : notExpr (K_AND notExpr)* ;

notExpr : K_NOT notExpr | isExpr ;

// IS [NOT] NULL / TRUE / FALSE / UNKNOWN, IS [NOT] DISTINCT FROM, ISNULL and NOTNULL: one
// precedence level below the comparisons, as in PostgreSQL.
isExpr : comparisonExpr isSuffix* ;

isSuffix
  : K_IS K_NOT? (K_NULL | K_TRUE | K_FALSE | K_UNKNOWN | K_DISTINCT K_FROM comparisonExpr)
  | K_ISNULL
  | K_NOTNULL
  ;

// x op ANY|SOME|ALL (subquery): a quantified comparison (IN is = ANY, NOT IN is <> ALL).
comparisonExpr
  : predicateExpr
    (comparisonOp (predicateExpr | (K_ANY | K_SOME | K_ALL) LPAREN (selectStmt | expr) RPAREN))?
  ;

// OPERATOR(pg_catalog.=) and the like: pg_dump's and psql's spelling, also before ANY / ALL.
comparisonOp
  : EQ | NE | NE2 | LT | LE | GT | GE
  | K_OPERATOR LPAREN (identifier DOT)? (EQ | NE | NE2 | LT | LE | GT | GE) RPAREN
  ;

predicateExpr : concatExpr predicateSuffix? ;

predicateSuffix
  : K_NOT? (K_LIKE | K_ILIKE) concatExpr (K_ESCAPE concatExpr)? # likePredicate
  | K_NOT? K_BETWEEN concatExpr K_AND concatExpr              # betweenPredicate
  | K_NOT? K_IN LPAREN selectStmt RPAREN                      # inSubqueryPredicate
  | K_NOT? K_IN LPAREN inItem (COMMA inItem)* RPAREN          # inListPredicate
  ;

// An IN-list element; a bare literal skips the expression levels, as valueItem's does, so a
// long list costs a few parse-tree objects per element instead of a dozen.
inItem : literal | expr ;

// `||`, the regular-expression matches and OPERATOR(schema.op) share PostgreSQL's "any other
// operator" precedence level.
concatExpr : additiveExpr (otherOp additiveExpr)* ;

// REGEXP / RLIKE (MySQL's spellings) are `~`, NOT REGEXP is `!~`. The JSON operators
// (-> ->> #> #>> #- @> <@ ? ?| ?&) and the geometric ones (&& <-> ~=) become calls of the
// function named by the operator.
otherOp
  : CONCAT | TILDE | NOT_TILDE | TILDE_STAR | NOT_TILDE_STAR | K_NOT? (K_REGEXP | K_RLIKE)
  | jsonOp
  | K_OPERATOR LPAREN (identifier DOT)? anyOperator RPAREN
  ;

jsonOp
  : JSON_GET | JSON_GET_TEXT | JSON_PATH | JSON_PATH_TEXT | JSON_DELETE_PATH | JSON_CONTAINS
  | JSON_CONTAINED | QUESTION | QUESTION_PIPE | QUESTION_AMP
  | GEO_OVERLAPS | GEO_DISTANCE | GEO_SAME
  ;

anyOperator
  : EQ | NE | NE2 | LT | LE | GT | GE | PLUS | MINUS | STAR | SLASH | PERCENT | CONCAT
  | TILDE | NOT_TILDE | TILDE_STAR | NOT_TILDE_STAR
  ;

additiveExpr : multiplicativeExpr ((PLUS | MINUS) multiplicativeExpr)* ;

multiplicativeExpr : atZoneExpr ((STAR | SLASH | PERCENT) atZoneExpr)* ;

// x AT TIME ZONE zone (timezone(zone, x)): tighter than * and looser than a sign, as
// PostgreSQL's precedence has it.
atZoneExpr : unaryExpr (K_AT K_TIME K_ZONE unaryExpr)* ;

unaryExpr : (PLUS | MINUS) unaryExpr | castExpr ;

// Subscripts `a[i]` and slices `a[i:j]` bind tighter than `::` and COLLATE.
castExpr : primary subscript* (TYPECAST typeName | K_COLLATE collationName)* ;

subscript : LBRACKET lower=expr (COLON upper=expr)? RBRACKET ;

collationName : (identifier DOT)? (identifier | K_DEFAULT) ;

primary
  : literal                                                                 # literalPrimary
  | PARAM                                                                   # paramPrimary
  | LPAREN selectStmt RPAREN                                                # subqueryPrimary
  | LPAREN expr RPAREN fieldSelection* (DOT STAR)?                          # parenPrimary
  | LPAREN expr (COMMA expr)+ RPAREN                                        # rowPrimary
  | K_EXISTS LPAREN selectStmt RPAREN                                       # existsPrimary
  | K_CASE operand=expr? (K_WHEN expr K_THEN expr)+ (K_ELSE elseExpr=expr)? K_END # casePrimary
  | K_CAST LPAREN expr K_AS typeName RPAREN                                 # castPrimary
  | simpleTypeName STRING_LITERAL                                           # typedLiteralPrimary
  | K_ARRAY LPAREN selectStmt RPAREN                                        # arrayPrimary
  | K_ARRAY arrayList                                                       # arrayListPrimary
  | K_SUBSTRING LPAREN expr (K_FROM expr)? K_FOR expr RPAREN                 # substringPrimary
  | K_SUBSTRING LPAREN expr K_FROM expr RPAREN                              # substringPrimary
  | K_POSITION LPAREN concatExpr K_IN concatExpr RPAREN                      # positionPrimary
  | K_OVERLAY LPAREN expr K_PLACING expr K_FROM expr (K_FOR expr)? RPAREN     # overlayPrimary
  | K_TRIM LPAREN side=(K_LEADING | K_TRAILING | K_BOTH)? (chars=expr? K_FROM)? expr
    (COMMA expr)? RPAREN                                                    # trimPrimary
  | (K_LEFT | K_RIGHT) LPAREN expr COMMA expr RPAREN                         # leftRightPrimary
  | fn=identifier LPAREN field=identifier K_FROM expr RPAREN                 # extractPrimary
  | identifier LPAREN STAR RPAREN aggFilter? overClause?                    # starFunctionPrimary
  | qualifiedName LPAREN ((K_DISTINCT | K_ALL)? expr (COMMA expr)* aggOrderBy?)? RPAREN
    withinGroup? aggFilter? overClause?                                     # functionPrimary
  | identifier (DOT identifier (DOT identifier)?)?                          # columnPrimary
  | identifier DOT STAR                                                     # wholeRowPrimary
  ;

// (record).field: a field of a record value (`(t).col`, `(ROW(1, 2)).f1`); `(t).*` is t.*.
fieldSelection : DOT identifier ;

// agg(args ORDER BY keys) and agg(...) FILTER (WHERE cond): aggregate calls only (the binder
// refuses them on other functions, 42809).
aggOrderBy : K_ORDER K_BY orderItem (COMMA orderItem)* ;

aggFilter : K_FILTER LPAREN K_WHERE expr RPAREN ;

// percentile_cont(0.5) WITHIN GROUP (ORDER BY x): the ordered-set aggregates' sort keys (the
// transformer accepts it only on them).
withinGroup : K_WITHIN K_GROUP LPAREN aggOrderBy RPAREN ;

// ARRAY[a, b, ...]; a nested list is a multidimensional array (rejected by the transformer).
arrayList : LBRACKET (arrayElement (COMMA arrayElement)*)? RBRACKET ;

arrayElement : expr | arrayList ;

literal
  : INTEGER_LITERAL
  | DECIMAL_LITERAL
  | STRING_LITERAL
  | ESCAPE_STRING
  | DOLLAR_STRING
  | K_TRUE
  | K_FALSE
  | K_NULL
  ;

// -------------------------------------------------------------------------------------- identifiers

identifier : IDENTIFIER | QUOTED_IDENTIFIER | nonReservedKeyword ;

// A select-list alias after AS may be any word, reserved or not.
columnLabel : identifier | reservedKeyword ;

nonReservedKeyword
  : K_BY | K_CHARACTER | K_DELETE | K_DOUBLE | K_DROP | K_EXPLAIN | K_FIRST | K_IF | K_INDEX
  | K_INSERT | K_KEY | K_LAST | K_NULLS | K_PRECISION | K_RECURSIVE | K_SET | K_UPDATE | K_VALUES
  | K_VARYING | K_COPY | K_LOCAL | K_OPERATOR | K_RESET | K_SESSION | K_SHOW | K_TIME | K_ZONE
  | K_AT
  | K_SUBSTRING | K_POSITION | K_TRIM | K_ESCAPE | K_TRUNCATE | K_OVERLAY | K_PLACING
  | K_ABORT | K_BEGIN | K_CHAIN | K_CHARACTERISTICS | K_COMMIT | K_COMMITTED | K_DEFERRABLE
  | K_ISOLATION | K_LEVEL | K_LOCKED | K_NO | K_NOWAIT | K_OF | K_ONLY | K_READ | K_RELEASE
  | K_REPEATABLE | K_ROLLBACK | K_SAVEPOINT | K_SERIALIZABLE | K_SHARE | K_SKIP | K_START
  | K_TRANSACTION | K_UNCOMMITTED | K_WORK | K_WRITE
  | K_PREPARE | K_EXECUTE | K_DEALLOCATE
  | K_ACTION | K_ADD | K_ALTER | K_CASCADE | K_DATA | K_MATCH | K_PARTIAL | K_RENAME | K_RESTRICT
  | K_SIMPLE | K_WITHOUT | K_WITHIN
  | K_REPLACE | K_TEMP | K_TEMPORARY | K_VIEW
  | K_ALWAYS | K_CACHE | K_CYCLE | K_GENERATED | K_IDENTITY | K_INCREMENT | K_MAXVALUE
  | K_MINVALUE | K_OVERRIDING | K_OWNED | K_RESTART | K_SEQUENCE | K_VALUE
  | K_CONFLICT | K_DO | K_NOTHING
  | K_FILTER
  | K_CURRENT | K_EXCLUDE | K_FOLLOWING | K_GROUPS | K_OTHERS | K_OVER | K_PARTITION
  | K_PRECEDING | K_RANGE | K_ROW | K_ROWS | K_TIES | K_UNBOUNDED
  | K_DEFERRED | K_IMMEDIATE | K_ORDINALITY
  | K_FREEZE | K_VACUUM | K_VERBOSE
  | K_SCHEMA | K_PRESERVE
  | K_CUBE | K_GROUPING | K_ROLLUP | K_SETS
  | K_UNKNOWN | K_LOCK | K_ACCESS | K_MODE | K_EXCLUSIVE
  ;

reservedKeyword
  : K_ALL | K_ANALYZE | K_AND | K_AS | K_ASC | K_BETWEEN | K_CASE | K_CAST | K_CONSTRAINT | K_CREATE
  | K_CROSS | K_DEFAULT | K_DESC | K_DISTINCT | K_ELSE | K_END | K_EXCEPT | K_EXISTS | K_FALSE
  | K_FROM | K_FULL | K_GROUP | K_HAVING | K_IN | K_INNER | K_INTERSECT | K_INTO | K_IS | K_JOIN
  | K_LATERAL | K_LEFT | K_LIKE | K_LIMIT | K_NOT | K_NULL | K_OFFSET | K_ON | K_OR | K_ORDER | K_OUTER
  | K_PRIMARY | K_RIGHT | K_SELECT | K_TABLE | K_THEN | K_TRUE | K_UNION | K_UNIQUE | K_USING
  | K_WHEN | K_WHERE | K_WITH | K_ARRAY | K_COLLATE | K_TO | K_FOR | K_LEADING | K_TRAILING
  | K_BOTH | K_ILIKE | K_ANY | K_SOME | K_REGEXP | K_RLIKE
  | K_CHECK | K_COLUMN | K_FOREIGN | K_REFERENCES | K_RETURNING | K_WINDOW | K_INITIALLY
  | K_AUTHORIZATION
  ;

// ------------------------------------------------------------------------------------------ lexer

K_ABORT : A B O R T ;
K_ACCESS : A C C E S S ;
K_ACTION : A C T I O N ;
K_ADD : A D D ;
K_ALL : A L L ;
K_ALTER : A L T E R ;
K_ANALYZE : A N A L Y Z E | A N A L Y S E ;
K_ANY : A N Y ;
K_AND : A N D ;
K_ARRAY : A R R A Y ;
K_AS : A S ;
K_AT : A T ;
K_AUTHORIZATION : A U T H O R I Z A T I O N ;
K_ASC : A S C ;
K_BEGIN : B E G I N ;
K_BETWEEN : B E T W E E N ;
K_BOTH : B O T H ;
K_BY : B Y ;
K_CASCADE : C A S C A D E ;
K_CASE : C A S E ;
K_CAST : C A S T ;
K_CHAIN : C H A I N ;
K_CHARACTER : C H A R A C T E R ;
K_CHARACTERISTICS : C H A R A C T E R I S T I C S ;
K_CHECK : C H E C K ;
K_COLLATE : C O L L A T E ;
K_COLUMN : C O L U M N ;
K_COMMIT : C O M M I T ;
K_COMMITTED : C O M M I T T E D ;
K_CONFLICT : C O N F L I C T ;
K_CONSTRAINT : C O N S T R A I N T ;
K_COPY : C O P Y ;
K_CREATE : C R E A T E ;
K_CROSS : C R O S S ;
K_DATA : D A T A ;
K_DEALLOCATE : D E A L L O C A T E ;
K_DEFAULT : D E F A U L T ;
K_DEFERRABLE : D E F E R R A B L E ;
K_DEFERRED : D E F E R R E D ;
K_DELETE : D E L E T E ;
K_DESC : D E S C ;
K_DISTINCT : D I S T I N C T ;
K_DO : D O ;
K_DOUBLE : D O U B L E ;
K_DROP : D R O P ;
K_ELSE : E L S E ;
K_END : E N D ;
K_ESCAPE : E S C A P E ;
K_EXCEPT : E X C E P T ;
K_EXISTS : E X I S T S ;
K_EXECUTE : E X E C U T E ;
K_EXPLAIN : E X P L A I N ;
K_FALSE : F A L S E ;
K_FILTER : F I L T E R ;
K_FIRST : F I R S T ;
K_FOR : F O R ;
K_FOREIGN : F O R E I G N ;
K_FROM : F R O M ;
K_FREEZE : F R E E Z E ;
K_FULL : F U L L ;
K_GROUP : G R O U P ;
K_HAVING : H A V I N G ;
K_IF : I F ;
K_ILIKE : I L I K E ;
K_IMMEDIATE : I M M E D I A T E ;
K_IN : I N ;
K_INDEX : I N D E X ;
K_INITIALLY : I N I T I A L L Y ;
K_ORDINALITY : O R D I N A L I T Y ;
K_INNER : I N N E R ;
K_INSERT : I N S E R T ;
K_INTERSECT : I N T E R S E C T ;
K_INTO : I N T O ;
K_IS : I S ;
K_ISNULL : I S N U L L ;
K_ISOLATION : I S O L A T I O N ;
K_JOIN : J O I N ;
K_KEY : K E Y ;
K_LAST : L A S T ;
K_LATERAL : L A T E R A L ;
K_LEADING : L E A D I N G ;
K_LEFT : L E F T ;
K_LEVEL : L E V E L ;
K_LIKE : L I K E ;
K_LIMIT : L I M I T ;
K_LOCAL : L O C A L ;
K_LOCK : L O C K ;
K_LOCKED : L O C K E D ;
K_MATCH : M A T C H ;
K_MODE : M O D E ;
K_NO : N O ;
K_NOTHING : N O T H I N G ;
K_NOT : N O T ;
K_NOTNULL : N O T N U L L ;
K_NOWAIT : N O W A I T ;
K_NULL : N U L L ;
K_NULLS : N U L L S ;
K_OF : O F ;
K_OFFSET : O F F S E T ;
K_ON : O N ;
K_ONLY : O N L Y ;
K_OPERATOR : O P E R A T O R ;
K_OR : O R ;
K_ORDER : O R D E R ;
K_OUTER : O U T E R ;
K_PARTIAL : P A R T I A L ;
K_POSITION : P O S I T I O N ;
K_OVERLAY : O V E R L A Y ;
K_PLACING : P L A C I N G ;
K_PRECISION : P R E C I S I O N ;
K_PREPARE : P R E P A R E ;
K_PRESERVE : P R E S E R V E ;
K_PRIMARY : P R I M A R Y ;
K_READ : R E A D ;
K_RECURSIVE : R E C U R S I V E ;
K_REFERENCES : R E F E R E N C E S ;
K_REGEXP : R E G E X P ;
K_RELEASE : R E L E A S E ;
K_RENAME : R E N A M E ;
K_REPLACE : R E P L A C E ;
K_REPEATABLE : R E P E A T A B L E ;
K_RESET : R E S E T ;
K_RESTRICT : R E S T R I C T ;
K_RIGHT : R I G H T ;
K_RLIKE : R L I K E ;
K_ROLLBACK : R O L L B A C K ;
K_SAVEPOINT : S A V E P O I N T ;
K_SCHEMA : S C H E M A ;
K_SELECT : S E L E C T ;
K_SERIALIZABLE : S E R I A L I Z A B L E ;
K_SESSION : S E S S I O N ;
K_SET : S E T ;
K_SHARE : S H A R E ;
K_SHOW : S H O W ;
K_SIMPLE : S I M P L E ;
K_SOME : S O M E ;
K_SKIP : S K I P ;
K_START : S T A R T ;
K_SUBSTRING : S U B S T R I N G ;
K_TABLE : T A B L E ;
K_TEMP : T E M P ;
K_TEMPORARY : T E M P O R A R Y ;
K_THEN : T H E N ;
K_TIME : T I M E ;
K_TO : T O ;
K_TRAILING : T R A I L I N G ;
K_TRANSACTION : T R A N S A C T I O N ;
K_TRIM : T R I M ;
K_TRUE : T R U E ;
K_UNKNOWN : U N K N O W N ;
K_TRUNCATE : T R U N C A T E ;
K_VACUUM : V A C U U M ;
K_VERBOSE : V E R B O S E ;
K_UNCOMMITTED : U N C O M M I T T E D ;
K_UNION : U N I O N ;
K_UNIQUE : U N I Q U E ;
K_UPDATE : U P D A T E ;
K_USING : U S I N G ;
K_VALUES : V A L U E S ;
K_VARYING : V A R Y I N G ;
K_VIEW : V I E W ;
K_WHEN : W H E N ;
K_WHERE : W H E R E ;
K_WITH : W I T H ;
K_WITHOUT : W I T H O U T ;
K_WITHIN : W I T H I N ;
K_WORK : W O R K ;
K_WRITE : W R I T E ;
K_ZONE : Z O N E ;
K_ALWAYS : A L W A Y S ;
K_CACHE : C A C H E ;
K_CYCLE : C Y C L E ;
K_GENERATED : G E N E R A T E D ;
K_IDENTITY : I D E N T I T Y ;
K_INCREMENT : I N C R E M E N T ;
K_MAXVALUE : M A X V A L U E ;
K_MINVALUE : M I N V A L U E ;
K_OVERRIDING : O V E R R I D I N G ;
K_OWNED : O W N E D ;
K_RESTART : R E S T A R T ;
K_RETURNING : R E T U R N I N G ;
K_SEQUENCE : S E Q U E N C E ;
K_VALUE : V A L U E ;
K_CURRENT : C U R R E N T ;
K_EXCLUDE : E X C L U D E ;
K_EXCLUSIVE : E X C L U S I V E ;
K_FOLLOWING : F O L L O W I N G ;
K_GROUPS : G R O U P S ;
K_CUBE : C U B E ;
K_GROUPING : G R O U P I N G ;
K_ROLLUP : R O L L U P ;
K_SETS : S E T S ;
K_OTHERS : O T H E R S ;
K_OVER : O V E R ;
K_PARTITION : P A R T I T I O N ;
K_PRECEDING : P R E C E D I N G ;
K_RANGE : R A N G E ;
K_ROW : R O W ;
K_ROWS : R O W S ;
K_TIES : T I E S ;
K_UNBOUNDED : U N B O U N D E D ;
K_WINDOW : W I N D O W ;

SEMI : ';' ;
COMMA : ',' ;
DOT : '.' ;
LPAREN : '(' ;
RPAREN : ')' ;
LBRACKET : '[' ;
RBRACKET : ']' ;
TYPECAST : '::' ;
COLON : ':' ;
CONCAT : '||' ;
EQ : '=' ;
NE : '<>' ;
NE2 : '!=' ;
TILDE : '~' ;
JSON_GET : '->' ;
JSON_GET_TEXT : '->>' ;
JSON_PATH : '#>' ;
JSON_PATH_TEXT : '#>>' ;
JSON_DELETE_PATH : '#-' ;
JSON_CONTAINS : '@>' ;
JSON_CONTAINED : '<@' ;
GEO_OVERLAPS : '&&' ;
GEO_DISTANCE : '<->' ;
GEO_SAME : '~=' ;
QUESTION : '?' ;
QUESTION_PIPE : '?|' ;
QUESTION_AMP : '?&' ;
NOT_TILDE : '!~' ;
TILDE_STAR : '~*' ;
NOT_TILDE_STAR : '!~*' ;
LE : '<=' ;
GE : '>=' ;
LT : '<' ;
GT : '>' ;
PLUS : '+' ;
MINUS : '-' ;
STAR : '*' ;
SLASH : '/' ;
PERCENT : '%' ;

INTEGER_LITERAL : DIGIT+ ;

DECIMAL_LITERAL
  : DIGIT+ '.' DIGIT* EXPONENT?
  | '.' DIGIT+ EXPONENT?
  | DIGIT+ EXPONENT
  ;

PARAM : '$' DIGIT+ ;

STRING_LITERAL : '\'' (~'\'' | '\'\'')* '\'' ;

// E'...': PostgreSQL's escape string (backslash escapes decoded by the transformer).
ESCAPE_STRING : [eE] '\'' ('\\' . | '\'\'' | ~['\\])* '\'' ;

// $$body$$ or $tag$body$tag$ (PostgreSQL's dollar quoting): the opening delimiter is matched
// here and the body up to the same delimiter is consumed by ConsumeDollarBody (a lexer rule
// cannot compare the two tags); a body without its closing delimiter becomes
// UNTERMINATED_DOLLAR_STRING, reported by the driver.
DOLLAR_STRING : '$' DOLLAR_TAG? '$' { ConsumeDollarBody(); } ;

UNTERMINATED_DOLLAR_STRING : '\u0000' '\u0000' ;  // only set by ConsumeDollarBody

// A string without its closing quote runs to the end of input; the driver reports it.
UNTERMINATED_STRING : '\'' (~'\'' | '\'\'')* ;

QUOTED_IDENTIFIER : '"' (~'"' | '""')* '"' ;

UNTERMINATED_QUOTED_IDENTIFIER : '"' (~'"' | '""')* ;

IDENTIFIER : IDENT_START IDENT_CONT* ;

// Comments never reach the lexer: SourceText blanks them out (nested /* */ included) first.

WHITESPACE : [ \t\r\n\f\u000B]+ -> skip ;

// Anything else is a one-character token the parser rejects with a syntax error.
ERROR_CHAR : . ;

fragment IDENT_START : [a-zA-Z_\u0080-\u{10FFFF}] ;
fragment IDENT_CONT : [a-zA-Z_0-9$\u0080-\u{10FFFF}] ;
fragment DIGIT : [0-9] ;
fragment DOLLAR_TAG : [a-zA-Z_\u0080-\u{10FFFF}] [a-zA-Z_0-9\u0080-\u{10FFFF}]* ;
fragment EXPONENT : [eE] [+-]? DIGIT+ ;

fragment A : [aA] ; fragment B : [bB] ; fragment C : [cC] ; fragment D : [dD] ;
fragment E : [eE] ; fragment F : [fF] ; fragment G : [gG] ; fragment H : [hH] ;
fragment I : [iI] ; fragment J : [jJ] ; fragment K : [kK] ; fragment L : [lL] ;
fragment M : [mM] ; fragment N : [nN] ; fragment O : [oO] ; fragment P : [pP] ;
fragment Q : [qQ] ; fragment R : [rR] ; fragment S : [sS] ; fragment T : [tT] ;
fragment U : [uU] ; fragment V : [vV] ; fragment W : [wW] ; fragment X : [xX] ;
fragment Y : [yY] ; fragment Z : [zZ] ;
