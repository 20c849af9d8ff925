// PostgreSQL object ids that Meridian reproduces, by name: the built-in types and their array
// types, the built-in namespaces, the catalogs' own pg_class oids, access methods, collations,
// the bootstrap role, and the rules that give user objects theirs. Clients compare these with
// their own tables (psql, psycopg, pgx, SQLAlchemy), so every value is PostgreSQL 15's.
// engine/catalog/system/README.md describes the tables that show them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace meridian {

// pg_type.oid of the built-in types (Type::PgOid, Type::FromParamOid, pg_type's rows).
inline constexpr int64_t kOidBool = 16;
inline constexpr int64_t kOidBytea = 17;
inline constexpr int64_t kOidChar = 18;  // "char", the one-byte type
inline constexpr int64_t kOidName = 19;
inline constexpr int64_t kOidInt8 = 20;
inline constexpr int64_t kOidInt2 = 21;
inline constexpr int64_t kOidInt2Vector = 22;
inline constexpr int64_t kOidInt4 = 23;
inline constexpr int64_t kOidRegProc = 24;
inline constexpr int64_t kOidText = 25;
inline constexpr int64_t kOidOid = 26;
inline constexpr int64_t kOidOidVector = 30;
inline constexpr int64_t kOidJson = 114;
inline constexpr int64_t kOidPoint = 600;
inline constexpr int64_t kOidBox = 603;
inline constexpr int64_t kOidFloat4 = 700;
inline constexpr int64_t kOidFloat8 = 701;
inline constexpr int64_t kOidUnknown = 705;
inline constexpr int64_t kOidBpchar = 1042;
inline constexpr int64_t kOidVarchar = 1043;
inline constexpr int64_t kOidDate = 1082;
inline constexpr int64_t kOidTime = 1083;
inline constexpr int64_t kOidTimestamp = 1114;
inline constexpr int64_t kOidTimestampTz = 1184;
inline constexpr int64_t kOidInterval = 1186;
inline constexpr int64_t kOidNumeric = 1700;
inline constexpr int64_t kOidRegClass = 2205;
inline constexpr int64_t kOidRegType = 2206;
inline constexpr int64_t kOidRecord = 2249;
inline constexpr int64_t kOidUuid = 2950;
inline constexpr int64_t kOidJsonb = 3802;
inline constexpr int64_t kOidRegNamespace = 4089;

// pg_type.typarray of those: the array type T[] (pg_type name "_" + T's).
inline constexpr int64_t kOidJsonArray = 199;
inline constexpr int64_t kOidBoolArray = 1000;
inline constexpr int64_t kOidByteaArray = 1001;
inline constexpr int64_t kOidCharArray = 1002;
inline constexpr int64_t kOidNameArray = 1003;
inline constexpr int64_t kOidInt2Array = 1005;
inline constexpr int64_t kOidInt2VectorArray = 1006;
inline constexpr int64_t kOidInt4Array = 1007;
inline constexpr int64_t kOidRegProcArray = 1008;
inline constexpr int64_t kOidTextArray = 1009;
inline constexpr int64_t kOidOidVectorArray = 1013;
inline constexpr int64_t kOidBpcharArray = 1014;
inline constexpr int64_t kOidVarcharArray = 1015;
inline constexpr int64_t kOidInt8Array = 1016;
inline constexpr int64_t kOidPointArray = 1017;
inline constexpr int64_t kOidBoxArray = 1020;
inline constexpr int64_t kOidFloat4Array = 1021;
inline constexpr int64_t kOidFloat8Array = 1022;
inline constexpr int64_t kOidOidArray = 1028;
inline constexpr int64_t kOidTimestampArray = 1115;
inline constexpr int64_t kOidDateArray = 1182;
inline constexpr int64_t kOidTimeArray = 1183;
inline constexpr int64_t kOidTimestampTzArray = 1185;
inline constexpr int64_t kOidIntervalArray = 1187;
inline constexpr int64_t kOidNumericArray = 1231;
inline constexpr int64_t kOidRegClassArray = 2210;
inline constexpr int64_t kOidRegTypeArray = 2211;
inline constexpr int64_t kOidUuidArray = 2951;
inline constexpr int64_t kOidJsonbArray = 3807;
inline constexpr int64_t kOidRegNamespaceArray = 4090;

// pg_namespace.oid of the built-in schemas (information_schema's is fixed at initdb in
// PostgreSQL; 13000 is Meridian's choice below kOidFirstNormal).
inline constexpr int64_t kOidPgCatalogNamespace = 11;
inline constexpr int64_t kOidPublicNamespace = 2200;
inline constexpr int64_t kOidInformationSchemaNamespace = 13000;
// A session's pg_temp_<n> schema: this base + n.
inline constexpr int64_t kOidTempNamespaceBase = 0x70000000;

// pg_authid.oid of the bootstrap superuser, which owns every object.
inline constexpr int64_t kOidBootstrapSuperuser = 10;

// pg_class.oid of the catalogs (also pg_depend.classid / refclassid values).
inline constexpr int64_t kOidPgType = 1247;
inline constexpr int64_t kOidPgAttribute = 1249;
inline constexpr int64_t kOidPgClass = 1259;
inline constexpr int64_t kOidPgDatabase = 1262;
inline constexpr int64_t kOidPgSequence = 2224;
inline constexpr int64_t kOidPgAm = 2601;
inline constexpr int64_t kOidPgAttrdef = 2604;
inline constexpr int64_t kOidPgConstraint = 2606;
inline constexpr int64_t kOidPgDepend = 2608;
inline constexpr int64_t kOidPgDescription = 2609;
inline constexpr int64_t kOidPgIndex = 2610;
inline constexpr int64_t kOidPgInherits = 2611;
inline constexpr int64_t kOidPgNamespace = 2615;
inline constexpr int64_t kOidPgOpclass = 2616;
inline constexpr int64_t kOidPgRewrite = 2618;
inline constexpr int64_t kOidPgTrigger = 2620;
inline constexpr int64_t kOidPgPolicy = 3256;
inline constexpr int64_t kOidPgStatisticExt = 3381;
inline constexpr int64_t kOidPgCollation = 3456;
inline constexpr int64_t kOidPgEnum = 3501;
inline constexpr int64_t kOidPgPublication = 6104;
inline constexpr int64_t kOidPgPublicationRel = 6106;
inline constexpr int64_t kOidPgPublicationNamespace = 6237;
inline constexpr int64_t kOidPgShseclabel = 3592;
inline constexpr int64_t kOidPgDbRoleSetting = 2964;
inline constexpr int64_t kOidPgExtension = 3079;
inline constexpr int64_t kOidPgLanguage = 2612;
inline constexpr int64_t kOidPgOperator = 2617;
inline constexpr int64_t kOidPgOpfamily = 2753;
inline constexpr int64_t kOidPgAmop = 2602;
inline constexpr int64_t kOidPgAmproc = 2603;
inline constexpr int64_t kOidPgCast = 2605;
inline constexpr int64_t kOidPgConversion = 2607;
inline constexpr int64_t kOidPgTransform = 3576;
inline constexpr int64_t kOidPgRange = 3541;
inline constexpr int64_t kOidPgAggregate = 2600;
inline constexpr int64_t kOidPgProc = 1255;
inline constexpr int64_t kOidPgTsParser = 3601;
inline constexpr int64_t kOidPgTsTemplate = 3764;
inline constexpr int64_t kOidPgTsDict = 3600;
inline constexpr int64_t kOidPgTsConfig = 3602;
inline constexpr int64_t kOidPgForeignDataWrapper = 2328;
inline constexpr int64_t kOidPgForeignServer = 1417;
inline constexpr int64_t kOidPgForeignTable = 3118;
inline constexpr int64_t kOidPgDefaultAcl = 826;
inline constexpr int64_t kOidPgInitPrivs = 3394;
inline constexpr int64_t kOidPgEventTrigger = 3466;
inline constexpr int64_t kOidPgPartitionedTable = 3350;
inline constexpr int64_t kOidPgSubscription = 6100;
inline constexpr int64_t kOidPgLargeobjectMetadata = 2995;
inline constexpr int64_t kOidPgTablespace = 1213;
inline constexpr int64_t kOidDefaultTablespace = 1663;  // pg_default
inline constexpr int64_t kOidGlobalTablespace = 1664;   // pg_global
// The system views (pg_roles, pg_tables, information_schema.*) have no fixed PostgreSQL oid:
// theirs is this base + their position in the system table registry.
inline constexpr int64_t kOidSystemViewBase = 16384 - 1000;

// pg_am.oid: heap, btree, gist, and rtree (PostgreSQL's own R-tree until 8.2; Meridian's
// R*-tree answers to USING rtree and USING gist).
inline constexpr int64_t kOidHeapAm = 2;
inline constexpr int64_t kOidRtreeAm = 402;
inline constexpr int64_t kOidBtreeAm = 403;
inline constexpr int64_t kOidGistAm = 783;

// pg_collation.oid: the database default (of every collatable column), C and POSIX.
inline constexpr int64_t kOidDefaultCollation = 100;
inline constexpr int64_t kOidCCollation = 950;
inline constexpr int64_t kOidPosixCollation = 951;

// User objects. PostgreSQL's FirstNormalObjectId: a relation (table, index, view, sequence)
// or CREATE SCHEMA schema with id n (one counter) has oid kOidFirstNormal + n.
inline constexpr int64_t kOidFirstNormal = 16384;
// pg_database.oid of the one database.
inline constexpr int64_t kOidDatabase = kOidFirstNormal - 1;

constexpr int64_t RelationOidOf(uint32_t relation_id) { return kOidFirstNormal + relation_id; }
// pg_attrdef.oid of column position `column` (1-based) of a table.
constexpr int64_t AttrDefOidOf(uint32_t table_id, int64_t column) {
  return RelationOidOf(table_id) * 1000 + column;
}
// pg_constraint.oid of a table's i-th CHECK (999 down) and i-th foreign key (899 down), in
// the table's block of 1000 next to its pg_attrdef oids; a PRIMARY KEY or UNIQUE constraint
// shares its index's oid.
constexpr int64_t CheckOidOf(uint32_t table_id, size_t i) {
  return RelationOidOf(table_id) * 1000 + 999 - static_cast<int64_t>(i);
}
constexpr int64_t ForeignKeyOidOf(uint32_t table_id, size_t i) {
  return RelationOidOf(table_id) * 1000 + 899 - static_cast<int64_t>(i);
}
// pg_rewrite.oid of a view's _RETURN rule: above every relation oid.
constexpr int64_t RuleOidOf(uint32_t view_id) {
  return RelationOidOf(view_id) + (int64_t{1} << 32);
}

}  // namespace meridian
