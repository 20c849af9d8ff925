// Evaluation of the session functions (version, current_setting, set_config, current_user,
// current_database, pg_backend_pid, ...) and the system-catalog functions behind psql's and the
// drivers' catalog queries (pg_get_userbyid, format_type, pg_get_indexdef, ::regclass, ...).
// They read the session's settings and the catalog through ExecContext.
#include <chrono>
#include <random>
#include <thread>

#include "binder/binder.h"
#include "binder/deparse.h"
#include "binder/function_registry.h"
#include "catalog/system_tables.h"
#include "catalog/transaction.h"
#include "execution/evaluator.h"
#include "function/builtin.h"
#include "function/datetime_functions.h"
#include "function/sequence.h"
#include "main/session_settings.h"
#include "txn/txn_manager.h"

namespace meridian::exec {

namespace {

// A CHECK constraint as pg_get_constraintdef(oid, true) prints it: bound over its table and
// deparsed, "CHECK (price >= 0::numeric)"; its stored text when it no longer binds.
std::string DisplayCheck(catalog::Catalog* catalog, const std::shared_ptr<catalog::Table>& table,
                         size_t i, bool pretty) {
  const catalog::CheckConstraint& check = table->schema().checks[i];
  catalog::LockSet no_locks;
  Binder binder(catalog, &no_locks);
  Result<BoundExprPtr> bound = binder.BindCheck(*check.expr, table->schema(), table);
  if (!bound.ok()) return "CHECK ((" + check.text + "))";
  return "CHECK (" + DeparseExpr(**bound, pretty) + ")";
}

// nextval('s') or nextval('s'::regclass) (SERIAL's default) as PostgreSQL shows it:
// nextval('s'::regclass); nullopt for anything else.
std::optional<std::string> NextvalDefault(const ast::Expr& expr) {
  if (expr.kind != ast::ExprKind::kFunction || expr.name != "nextval" ||
      expr.children.size() != 1) {
    return std::nullopt;
  }
  const ast::Expr* arg = expr.children[0].get();
  if (arg->kind == ast::ExprKind::kCast && arg->cast_type.name == "regclass") {
    arg = arg->children[0].get();
  }
  if (arg->kind != ast::ExprKind::kLiteral || arg->literal_kind != ast::LiteralKind::kString) {
    return std::nullopt;
  }
  std::string quoted;
  for (char c : arg->text) quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return "nextval('" + quoted + "'::regclass)";
}

// pg_get_expr(adbin, relid) of a column DEFAULT: a literal as PostgreSQL stores it after the
// coercion to the column type ('abc'::bpchar, 'x'::text, '-1'::integer, 0, 1.5, true), any other
// expression deparsed without that outer coercion (now()); other text as it is.
std::string DisplayDefault(catalog::Catalog* catalog, const std::string& text, int64_t relid,
                           bool pretty) {
  std::shared_ptr<catalog::Table> table = catalog::SystemTables::TableByOid(*catalog, relid);
  if (table == nullptr) return text;
  for (const catalog::Column& col : table->schema().columns) {
    if (col.dropped || col.default_expr == nullptr || col.default_text != text) continue;
    const ast::Expr& expr = *col.default_expr;
    if (std::optional<std::string> seq = NextvalDefault(expr)) return *seq;
    if (expr.kind == ast::ExprKind::kLiteral) {
      switch (expr.literal_kind) {
        case ast::LiteralKind::kString: {
          std::string quoted = "'";
          for (char c : expr.text) quoted += c == '\'' ? std::string("''") : std::string(1, c);
          const Type t = col.type.Element();  // an array: its element's name and "[]"
          return quoted +
                 "'::" + (t.id == TypeId::kChar ? std::string("bpchar") : Type{t.id, -1}.Name()) +
                 (col.type.IsArray() ? "[]" : "");
        }
        case ast::LiteralKind::kInteger:
          if (!expr.text.empty() && expr.text[0] == '-') return "'" + expr.text + "'::integer";
          return expr.text;
        case ast::LiteralKind::kBool:
          return expr.bool_value ? "true" : "false";
        case ast::LiteralKind::kNull:
          return "NULL::" + col.type.DisplayName();
        case ast::LiteralKind::kFloat:
          if (!expr.text.empty() && expr.text[0] == '-') return "'" + expr.text + "'::numeric";
          return expr.text;
      }
    }
    catalog::LockSet no_locks;
    Binder binder(catalog, &no_locks);
    Result<BoundExprPtr> bound = binder.BindDefault(expr, col.type, col.name);
    if (!bound.ok()) return text;
    const BoundExpr* e = bound->get();
    if (e->kind == BoundKind::kCast && !e->explicit_cast) e = e->children[0].get();
    return DeparseExpr(*e, pretty);
  }
  return text;
}

#if defined(__x86_64__)
constexpr const char* kPlatform = "x86_64-pc-linux-gnu";
#elif defined(__aarch64__)
constexpr const char* kPlatform = "aarch64-unknown-linux-gnu";
#else
constexpr const char* kPlatform = "unknown-linux-gnu";
#endif

#if defined(__clang__)
constexpr const char* kCompiler = "clang " __clang_version__;
#else
constexpr const char* kCompiler = "gcc " __VERSION__;
#endif

Status NoSession() { return Status::Internal("no session for a session function"); }

}  // namespace

Result<Value> EvalSystemFunction(const BoundExpr& e, const EvalContext& ctx) {
  std::vector<Value> args;
  for (const BoundExprPtr& c : e.children) {
    MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*c, ctx));
    // Every one of them is strict: a NULL argument gives NULL, as in PostgreSQL; but
    // format_type's NULL typmod means none (psql's \d of a sequence passes one).
    if (v.IsNull()) {
      if (e.func != Func::kFormatType || args.empty()) return Value::Null();
      v = Value::Int(-1);
    }
    args.push_back(std::move(v));
  }
  ExecContext* exec = ctx.exec;
  SessionSettings* settings = exec != nullptr ? exec->settings : nullptr;
  const catalog::Catalog* catalog = exec != nullptr ? exec->catalog : nullptr;
  switch (e.func) {
    case Func::kNextval:
    case Func::kCurrval:
    case Func::kSetval:
    case Func::kLastval:
    case Func::kSerialSequence:
      return EvalSequenceFunction(e, args, exec);
    case Func::kNow:
    case Func::kLocalTimestamp:
    case Func::kCurrentDate:
    case Func::kClockTimestamp:
    case Func::kDatePart:
    case Func::kDateTrunc:
    case Func::kJustifyDays:
    case Func::kJustifyHours:
    case Func::kJustifyInterval:
    case Func::kMakeInterval:
    case Func::kAge:
    case Func::kTimezone:
      return EvalDateTimeFunction(e, args, exec);
    case Func::kRandom: {
      // One generator per thread, seeded from the system's entropy (PostgreSQL seeds each
      // backend likewise); 53 random bits, so every double in [0, 1) of that grid can come up.
      thread_local std::mt19937_64 rng{std::random_device{}()};
      return Value::Double(static_cast<double>(rng() >> 11) * 0x1.0p-53);
    }
    case Func::kVersion:
      return Value::String(std::string("PostgreSQL ") + kPgVersionNumber + " (" + kProductVersion +
                           ") on " + kPlatform + ", compiled by " + kCompiler + ", 64-bit");
    case Func::kCurrentSetting: {
      if (settings == nullptr) return NoSession();
      auto v = settings->Show(args[0].AsString());
      if (!v.ok()) {
        if (args.size() > 1 && args[1].AsBool()) return Value::Null();  // missing_ok
        return v.status();
      }
      return Value::String(std::move(v).value());
    }
    case Func::kSetConfig: {
      if (settings == nullptr) return NoSession();
      if (args[2].AsBool() && settings->in_transaction()) {  // is_local: until the block ends
        MERIDIAN_ASSIGN_OR_RETURN(std::string v,
                                  settings->SetLocal(args[0].AsString(), {args[1].AsString()}));
        return Value::String(std::move(v));
      }
      if (args[2].AsBool()) {
        // is_local outside a block: lasts until the end of the transaction, which is this
        // statement, so it is checked and reported but not kept.
        SessionSettings scratch(*settings);
        MERIDIAN_ASSIGN_OR_RETURN(std::string v,
                                  scratch.Set(args[0].AsString(), {args[1].AsString()}));
        return Value::String(std::move(v));
      }
      MERIDIAN_ASSIGN_OR_RETURN(std::string v,
                                settings->Set(args[0].AsString(), {args[1].AsString()}));
      return Value::String(std::move(v));
    }
    case Func::kCurrentSchema: {
      std::vector<std::string> path = catalog->EffectiveSearchPath(false);
      return path.empty() ? Value::Null() : Value::String(path.front());
    }
    case Func::kCurrentSchemas: {
      // PostgreSQL's order: the session's pg_temp schema (implicit), pg_catalog (implicit),
      // then the path's existing schemas.
      std::vector<std::string> path = catalog->EffectiveSearchPath(args[0].AsBool());
      std::vector<Value> out;
      size_t i = 0;
      if (args[0].AsBool()) {
        if (!path.empty() && catalog::Catalog::IsTempSchema(path.front())) {
          out.push_back(Value::String(path.front()));
          i = 1;
        }
        out.push_back(Value::String("pg_catalog"));
      }
      for (; i < path.size(); ++i) out.push_back(Value::String(path[i]));
      return Value::Array(std::move(out));
    }
    case Func::kCurrentDatabase:
      if (settings == nullptr) return NoSession();
      return Value::String(settings->database());
    case Func::kCurrentUser:
    case Func::kSessionUser:
      if (settings == nullptr) return NoSession();
      return Value::String(settings->user());
    case Func::kBackendPid:
      if (settings == nullptr) return NoSession();
      return Value::Int(settings->backend_pid());
    case Func::kUserById:
      return Value::String(catalog::SystemTables::UserName(args[0].AsInt()));
    case Func::kAlwaysTrue:
      return Value::Bool(true);
    case Func::kAlwaysFalse:
      return Value::Bool(false);
    case Func::kAlwaysNull:
      return Value::Null();
    case Func::kFormatType:
      return Value::String(catalog::SystemTables::FormatType(args[0].AsInt(), args[1].AsInt()));
    case Func::kQuoteIdent:
      return Value::String(catalog::QuoteIdent(args[0].AsString()));
    case Func::kEncodingToChar:
      return Value::String(args[0].AsInt() == 6 ? "UTF8" : "");
    default:
      break;
  }
  if (catalog == nullptr) return Status::Internal("no catalog for a system-catalog function");
  using catalog::SystemTables;
  switch (e.func) {
    case Func::kGetExpr:  // pg_attrdef.adbin holds a DEFAULT's SQL text
      return Value::String(DisplayDefault(exec->catalog, args[0].AsString(), args[1].AsInt(),
                                          args.size() > 2 && args[2].AsBool()));
    case Func::kTableIsVisible:
      return Value::Bool(SystemTables::RelationVisible(*catalog, args[0].AsInt()));
    case Func::kRelationIsPublishable:
      return Value::Bool(SystemTables::IsUserTable(*catalog, args[0].AsInt()));
    case Func::kIndexDef: {
      // pg_get_indexdef(oid, column, pretty): column 0 is the whole definition, n the n-th key.
      std::optional<std::string> def =
          SystemTables::IndexDef(*catalog, args[0].AsInt(), args.size() > 1 ? args[1].AsInt() : 0,
                                 args.size() > 2 && !args[2].IsNull() && args[2].AsBool());
      return def ? Value::String(*def) : Value::Null();
    }
    case Func::kConstraintDef: {
      std::shared_ptr<catalog::Table> table;
      if (std::optional<size_t> i = SystemTables::FindCheck(*catalog, args[0].AsInt(), &table)) {
        return Value::String(
            DisplayCheck(exec->catalog, table, *i, args.size() > 1 && args[1].AsBool()));
      }
      std::optional<std::string> def = SystemTables::ConstraintDef(*catalog, args[0].AsInt());
      return def ? Value::String(*def) : Value::Null();
    }
    case Func::kViewDef: {
      std::optional<std::string> def = SystemTables::ViewDef(*catalog, args[0].AsInt());
      return def ? Value::String(*def) : Value::Null();
    }
    case Func::kToRegClass: {
      std::optional<int64_t> oid = SystemTables::RelationOid(*catalog, args[0].AsString());
      return oid ? Value::Int(*oid) : Value::Null();
    }
    case Func::kToRegType: {
      std::optional<int64_t> oid = SystemTables::TypeOid(args[0].AsString());
      return oid ? Value::Int(*oid) : Value::Null();
    }
    case Func::kRegClassIn: {
      // A number is an oid as it is, as PostgreSQL's regclassin takes it ('16390'::regclass).
      const std::string& text = args[0].AsString();
      if (!text.empty() && text.size() <= 10 &&
          text.find_first_not_of("0123456789") == std::string::npos) {
        return Value::Int(std::stoll(text));
      }
      std::optional<int64_t> oid = SystemTables::RelationOid(*catalog, text);
      if (!oid) {
        return Status::Error(sqlstate::kUndefinedTable,
                             "relation \"" + args[0].AsString() + "\" does not exist");
      }
      return Value::Int(*oid);
    }
    case Func::kRegTypeIn: {
      std::optional<int64_t> oid = SystemTables::TypeOid(args[0].AsString());
      if (!oid) {
        return Status::Error(sqlstate::kUndefinedObject,
                             "type \"" + args[0].AsString() + "\" does not exist");
      }
      return Value::Int(*oid);
    }
    case Func::kRegProcOut: {
      const int64_t oid = args[0].AsInt();
      return Value::String(oid == 0 ? "-" : std::to_string(oid));
    }
    case Func::kRegNamespaceIn: {
      std::optional<int64_t> oid = SystemTables::NamespaceOid(*catalog, args[0].AsString());
      if (!oid) {
        return Status::Error(sqlstate::kInvalidSchemaName,
                             "schema \"" + args[0].AsString() + "\" does not exist");
      }
      return Value::Int(*oid);
    }
    // An oid with no object prints as the number, as in PostgreSQL; 0 prints as "-".
    case Func::kRegClassOut:
    case Func::kRegTypeOut:
    case Func::kRegNamespaceOut: {
      const int64_t oid = args[0].AsInt();
      if (oid == 0) return Value::String("-");
      std::optional<std::string> name =
          e.func == Func::kRegClassOut  ? SystemTables::RelationName(*catalog, oid)
          : e.func == Func::kRegTypeOut ? SystemTables::TypeName(oid)
                                        : SystemTables::NamespaceName(*catalog, oid);
      return Value::String(name ? *name : std::to_string(oid));
    }
    default:
      break;
  }
  return Status::Internal("unknown system function");
}

namespace {

// txid_current(): the id of the statement's transaction without its marker bit (a positive
// bigint, increasing with each transaction, as PostgreSQL's).
Result<Value> TxidCurrent(std::span<const Value>, ExecContext* exec) {
  if (exec == nullptr || exec->txn == nullptr) return NoSession();
  return Value::Int(static_cast<int64_t>(exec->txn->id() & ~txn::kTxnIdBit));
}

// pg_sleep(seconds): sleeps in slices of at most 10 ms, so a cancel or statement_timeout ends
// it (57014). Returns void in PostgreSQL; here an empty text.
Result<Value> PgSleep(std::span<const Value> args, ExecContext* exec) {
  const double seconds = args[0].AsDouble();
  if (!(seconds > 0)) return Value::String("");
  // A quick statement (ExecControl::no_wait) must not sleep on its thread: it runs again where
  // it may.
  if (exec != nullptr && exec->ctl != nullptr && exec->ctl->no_wait()) {
    return ExecControl::WouldBlock();
  }
  using Clock = std::chrono::steady_clock;
  const Clock::time_point end =
      Clock::now() + std::chrono::microseconds(static_cast<int64_t>(std::min(seconds, 1e9) * 1e6));
  while (true) {
    if (exec != nullptr && exec->ctl != nullptr) MERIDIAN_RETURN_IF_ERROR(exec->ctl->Check());
    const Clock::time_point now = Clock::now();
    if (now >= end) break;
    std::this_thread::sleep_for(
        std::min<Clock::duration>(end - now, std::chrono::milliseconds(10)));
  }
  return Value::String("");
}

// num_nulls / num_nonnulls(VARIADIC "any"): how many arguments are (not) NULL.
template <bool kNulls>
Result<Value> CountNulls(std::span<const Value> a, ExecContext*) {
  int64_t n = 0;
  for (const Value& v : a) n += v.IsNull() == kNulls ? 1 : 0;
  return Value::Int(n);
}

// The pairs behind pg_options_to_table(text[]) in FROM (binder/bind_array.cc): each
// "name=value" element split at its first '=' (a value of NULL when there is none).
Result<Value> OptionsToTablePairs(std::span<const Value> a, ExecContext*) {
  std::vector<Value> out;
  for (const Value& element : a[0].AsArray()) {
    if (element.IsNull()) continue;
    const std::string& option = element.AsString();
    const size_t eq = option.find('=');
    std::vector<Value> pair{
        Value::String(option.substr(0, eq)),
        eq == std::string::npos ? Value::Null() : Value::String(option.substr(eq + 1))};
    out.push_back(Value::Array(std::move(pair)));
  }
  return Value::Array(std::move(out));
}

// name[i] (binder/bind_array.cc): byte i of a catalog name, from 0; NULL past either end.
Result<Value> NameSubscript(std::span<const Value> a, ExecContext*) {
  const std::string& name = a[0].AsString();
  const int64_t i = a[1].AsInt();
  if (i < 0 || i >= static_cast<int64_t>(name.size())) return Value::Null();
  return Value::String(name.substr(static_cast<size_t>(i), 1));
}

// acldefault(type, owner): PostgreSQL's built-in privileges of an object of that kind owned by
// owner, as aclitem[] text (pg_dump compares an object's ACL with it).
Result<Value> AclDefault(std::span<const Value> a, ExecContext*) {
  const std::string owner = catalog::SystemTables::UserName(a[1].AsInt());
  const std::string& kind = a[0].AsString();
  std::string acl;
  if (kind == "r") {
    acl = owner + "=arwdDxt/" + owner;
  } else if (kind == "s") {
    acl = owner + "=rwU/" + owner;
  } else if (kind == "n") {
    acl = owner + "=UC/" + owner;
  } else if (kind == "f") {
    acl = "=X/" + owner + "," + owner + "=X/" + owner;
  } else if (kind == "l" || kind == "T") {
    acl = "=U/" + owner + "," + owner + "=U/" + owner;
  } else if (kind == "L") {
    acl = owner + "=rw/" + owner;
  } else if (kind == "F" || kind == "S") {
    acl = owner + "=U/" + owner;
  } else if (kind == "d") {
    acl = "=Tc/" + owner + "," + owner + "=CTc/" + owner;
  } else if (kind == "t") {
    acl = owner + "=C/" + owner;
  } else {
    return Status::Error(sqlstate::kInternalError, "unrecognized objtype abbreviation: " + kind);
  }
  return Value::String("{" + acl + "}");
}

constexpr ScalarFunction kSystemScalarFunctions[] = {
    {"name_subscript", "ti", 2, 't', &NameSubscript},
    {"acldefault", "tl", 2, 't', &AclDefault},
    {"pg_options_to_table_array", "A", 1, 'A', &OptionsToTablePairs},
    {"txid_current", "", 0, 'l', &TxidCurrent, false, true, /*is_volatile=*/true},
    {"pg_sleep", "F", 1, 't', &PgSleep, false, true, /*is_volatile=*/true},
    {"num_nulls", "x", 1, 'i', &CountNulls<true>, /*variadic=*/true, /*strict=*/false},
    {"num_nonnulls", "x", 1, 'i', &CountNulls<false>, /*variadic=*/true, /*strict=*/false},
};

}  // namespace

void RegisterSystemScalarFunctions() { RegisterScalarFunctions(kSystemScalarFunctions); }

}  // namespace meridian::exec
