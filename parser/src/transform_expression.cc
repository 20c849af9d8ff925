// Expressions: one function per precedence level of the grammar (OR down to primaries), building
// left-associative chains iteratively. Folds a minus sign into a numeric literal (-5 is the
// literal "-5", as PostgreSQL does) and NOT into EXISTS (negated).

#include <optional>

#include "meridian/parser/utf8.h"
#include "transformer.h"

namespace meridian::parser {
using ast::BinaryOp;
using ast::ExprKind;
using ast::ExprPtr;

ExprPtr NewExpr(ExprKind kind, ast::Location loc) {
  auto e = std::make_unique<ast::Expr>();
  e->kind = kind;
  e->loc = loc;
  return e;
}

ExprPtr MakeBinary(BinaryOp op, ExprPtr left, ExprPtr right) {
  ExprPtr e = NewExpr(ExprKind::kBinary, left->loc);
  e->binary_op = op;
  e->children.push_back(std::move(left));
  e->children.push_back(std::move(right));
  return e;
}

namespace {

using Token = antlr4::Token;

std::optional<BinaryOp> OperatorOf(size_t token_type) {
  switch (token_type) {
    case P::K_OR:
      return BinaryOp::kOr;
    case P::K_AND:
      return BinaryOp::kAnd;
    case P::CONCAT:
      return BinaryOp::kConcat;
    case P::PLUS:
      return BinaryOp::kAdd;
    case P::MINUS:
      return BinaryOp::kSub;
    case P::STAR:
      return BinaryOp::kMul;
    case P::SLASH:
      return BinaryOp::kDiv;
    case P::PERCENT:
      return BinaryOp::kMod;
    case P::EQ:
      return BinaryOp::kEq;
    case P::NE:
    case P::NE2:
      return BinaryOp::kNe;
    case P::LT:
      return BinaryOp::kLt;
    case P::LE:
      return BinaryOp::kLe;
    case P::GT:
      return BinaryOp::kGt;
    case P::GE:
      return BinaryOp::kGe;
    case P::TILDE:
    case P::K_REGEXP:
    case P::K_RLIKE:
      return BinaryOp::kRegexMatch;
    case P::NOT_TILDE:
      return BinaryOp::kRegexNotMatch;
    case P::TILDE_STAR:
      return BinaryOp::kRegexIMatch;
    case P::NOT_TILDE_STAR:
      return BinaryOp::kRegexNotIMatch;
    default:
      return std::nullopt;
  }
}

// `operand (op operand)*` as a left-deep tree; the rule's terminals are its operators.
template <typename OperandFn>
ExprPtr BuildChain(antlr4::ParserRuleContext* ctx, OperandFn&& operand) {
  if (ctx->children.size() == 1) {  // fast path: most levels hold a single operand
    return operand(static_cast<antlr4::ParserRuleContext*>(ctx->children[0]));
  }
  ExprPtr left;
  BinaryOp op = BinaryOp::kAdd;
  for (antlr4::tree::ParseTree* child : ctx->children) {
    if (auto* t = dynamic_cast<antlr4::tree::TerminalNode*>(child)) {
      op = OperatorOf(t->getSymbol()->getType()).value_or(op);
      continue;
    }
    ExprPtr right = operand(static_cast<antlr4::ParserRuleContext*>(child));
    left = left ? MakeBinary(op, std::move(left), std::move(right)) : std::move(right);
  }
  return left;
}

std::string UnquoteString(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 1; i + 1 < text.size(); ++i) {
    out += text[i];
    if (text[i] == '\'') ++i;  // '' stands for one '
  }
  return out;
}

// The value of E'...': \b \f \n \r \t, \ooo (octal), \xhh (hex), \uXXXX, \UXXXXXXXX, ''
// and \' for a quote, \ followed by any other character for that character. 22025 for a bad
// Unicode escape, 22021 for a zero byte or bytes that are not UTF-8, as PostgreSQL.
Result<std::string> DecodeEscapeString(const std::string& text) {
  std::string out;
  auto digits = [&](size_t* i, size_t max, int base) {
    uint32_t v = 0;
    size_t n = 0;
    while (n < max && *i < text.size() - 1) {
      const char c = text[*i];
      int d = c >= '0' && c <= '9'                 ? c - '0'
              : base == 16 && c >= 'a' && c <= 'f' ? c - 'a' + 10
              : base == 16 && c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                   : -1;
      if (d < 0 || d >= base) break;
      v = v * static_cast<uint32_t>(base) + static_cast<uint32_t>(d);
      ++*i;
      ++n;
    }
    return std::make_pair(v, n);
  };
  for (size_t i = 2; i + 1 < text.size();) {  // after E' and before the closing '
    const char c = text[i];
    if (c == '\'') {  // '' stands for one '
      out += '\'';
      i += 2;
      continue;
    }
    if (c != '\\') {
      out += c;
      ++i;
      continue;
    }
    const char e = text[i + 1];
    i += 2;
    switch (e) {
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'x': {
        auto [v, n] = digits(&i, 2, 16);
        if (n == 0) {
          out += 'x';
        } else {
          if (v == 0)
            return Status::Error("22021", "invalid byte sequence for encoding \"UTF8\": 0x00");
          out += static_cast<char>(v);
        }
        break;
      }
      case 'u':
      case 'U': {
        const size_t want = e == 'u' ? 4 : 8;
        auto [v, n] = digits(&i, want, 16);
        if (n != want || v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
          return Status::Error("22025", "invalid Unicode escape")
              .WithHint("Unicode escapes must be \\XXXX or \\+XXXXXX.");
        }
        AppendUtf8(v, &out);
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          --i;
          auto [v, n] = digits(&i, 3, 8);
          (void)n;
          if ((v & 0xFF) == 0) {
            return Status::Error("22021", "invalid byte sequence for encoding \"UTF8\": 0x00");
          }
          out += static_cast<char>(v & 0xFF);
        } else {
          out += e;  // \\, \', and any other character stand for themselves
        }
        break;
    }
  }
  if (!IsValidUtf8(out)) {
    return Status::Error("22021", "invalid byte sequence for encoding \"UTF8\"");
  }
  return out;
}

}  // namespace

ExprPtr Transformer::TransformExpr(P::ExprContext* ctx) { return TransformOr(ctx->orExpr()); }

ExprPtr Transformer::TransformValueItem(P::ValueItemContext* ctx) {
  if (ctx->literal() != nullptr) return TransformLiteral(ctx->literal());
  if (ctx->expr() != nullptr) return TransformExpr(ctx->expr());
  return nullptr;  // DEFAULT
}

ExprPtr Transformer::TransformInItem(P::InItemContext* ctx) {
  if (ctx->literal() != nullptr) return TransformLiteral(ctx->literal());
  return TransformExpr(ctx->expr());
}

ExprPtr Transformer::TransformOr(P::OrExprContext* ctx) {
  return BuildChain(ctx, [&](antlr4::ParserRuleContext* c) {
    return TransformAnd(static_cast<P::AndExprContext*>(c));
  });
}

ExprPtr Transformer::TransformAnd(P::AndExprContext* ctx) {
  return BuildChain(ctx, [&](antlr4::ParserRuleContext* c) {
    return TransformNot(static_cast<P::NotExprContext*>(c));
  });
}

ExprPtr Transformer::TransformNot(P::NotExprContext* ctx) {
  if (ctx->children.size() == 1)
    return TransformIs(static_cast<P::IsExprContext*>(ctx->children[0]));
  ExprPtr operand = TransformNot(ctx->notExpr());
  if (operand->kind == ExprKind::kExists) {
    operand->negated = !operand->negated;
    operand->loc = Loc(ctx);
    return operand;
  }
  ExprPtr e = NewExpr(ExprKind::kUnary, Loc(ctx));
  e->unary_op = ast::UnaryOp::kNot;
  e->children.push_back(std::move(operand));
  return e;
}

ExprPtr Transformer::TransformIs(P::IsExprContext* ctx) {
  ExprPtr e = TransformComparison(ctx->comparisonExpr());
  bool after_distinct = false;
  for (P::IsSuffixContext* suffix : ctx->isSuffix()) {
    if (after_distinct) {  // PostgreSQL's IS is non-associative after DISTINCT FROM b
      Fail(ErrorAt(suffix, sqlstate::kSyntaxError,
                   "syntax error at or near \"" + suffix->getStart()->getText() + "\""));
      return e;
    }
    after_distinct = suffix->K_DISTINCT() != nullptr;
    const bool negated = suffix->K_NOT() != nullptr || suffix->K_NOTNULL() != nullptr;
    ExprPtr test;
    if (suffix->K_DISTINCT() != nullptr) {  // a IS [NOT] DISTINCT FROM b
      test = NewExpr(ExprKind::kBinary, e->loc);
      test->binary_op = negated ? BinaryOp::kIsNotDistinctFrom : BinaryOp::kIsDistinctFrom;
      test->children.push_back(std::move(e));
      test->children.push_back(TransformComparison(suffix->comparisonExpr()));
    } else if (suffix->K_TRUE() != nullptr || suffix->K_FALSE() != nullptr ||
               suffix->K_UNKNOWN() != nullptr) {
      test = NewExpr(ExprKind::kBooleanTest, e->loc);
      test->literal_kind =
          suffix->K_UNKNOWN() != nullptr ? ast::LiteralKind::kNull : ast::LiteralKind::kBool;
      test->bool_value = suffix->K_TRUE() != nullptr;
      test->negated = negated;
      test->children.push_back(std::move(e));
    } else {  // IS [NOT] NULL, ISNULL, NOTNULL
      test = NewExpr(ExprKind::kIsNull, e->loc);
      test->negated = negated;
      test->children.push_back(std::move(e));
    }
    e = std::move(test);
  }
  return e;
}

// = < ... or OPERATOR([pg_catalog.]=): the symbol is the first terminal, or the one before ')'.
BinaryOp Transformer::ComparisonOpOf(P::ComparisonOpContext* ctx) {
  const size_t at = ctx->K_OPERATOR() != nullptr ? ctx->children.size() - 2 : 0;
  auto* token = dynamic_cast<antlr4::tree::TerminalNode*>(ctx->children[at]);
  if (ctx->identifier() != nullptr && Identifier(ctx->identifier()) != "pg_catalog") {
    Fail(ErrorAt(ctx, sqlstate::kInvalidSchemaName,
                 "schema \"" + Identifier(ctx->identifier()) + "\" does not exist"));
  }
  return OperatorOf(token->getSymbol()->getType()).value_or(BinaryOp::kEq);
}

ExprPtr Transformer::TransformComparison(P::ComparisonExprContext* ctx) {
  auto* left_ctx = static_cast<P::PredicateExprContext*>(ctx->children[0]);
  if (ctx->children.size() > 1) {
    const BinaryOp op = ComparisonOpOf(ctx->comparisonOp());
    const RowOperand left_row = BareRow(left_ctx);
    const RowOperand right_row =
        ctx->predicateExpr().size() > 1 ? BareRow(ctx->predicateExpr(1)) : RowOperand{};
    if (left_row.ctx != nullptr && right_row.ctx != nullptr) {
      return CompareRows(op, left_row, right_row);
    }
  }
  ExprPtr left = TransformPredicate(left_ctx);
  if (ctx->children.size() == 1) return left;
  const BinaryOp op = ComparisonOpOf(ctx->comparisonOp());
  if (ctx->expr() != nullptr) {  // x op ANY|SOME|ALL (array)
    ExprPtr e = NewExpr(ExprKind::kQuantifiedArray, left->loc);
    e->binary_op = op;
    e->all = ctx->K_ALL() != nullptr;
    e->children.push_back(std::move(left));
    e->children.push_back(TransformExpr(ctx->expr()));
    return e;
  }
  if (ctx->selectStmt() != nullptr) {  // x op ANY|SOME|ALL (subquery)
    ExprPtr e = NewExpr(ExprKind::kInSubquery, left->loc);
    e->binary_op = op;
    e->all = ctx->K_ALL() != nullptr;
    e->children.push_back(std::move(left));
    e->subquery = TransformSelect(ctx->selectStmt());
    return e;
  }
  return MakeBinary(op, std::move(left), TransformPredicate(ctx->predicateExpr(1)));
}

ExprPtr Transformer::TransformPredicate(P::PredicateExprContext* ctx) {
  if (ctx->children.size() > 1) {
    auto* in_list = dynamic_cast<P::InListPredicateContext*>(ctx->predicateSuffix());
    const RowOperand row = BareRow(ctx->concatExpr());
    if (row.ctx != nullptr && in_list != nullptr) return RowInList(row, in_list);
  }
  ExprPtr operand = TransformConcat(static_cast<P::ConcatExprContext*>(ctx->children[0]));
  if (ctx->children.size() == 1) return operand;
  P::PredicateSuffixContext* suffix = ctx->predicateSuffix();
  ast::Location loc = operand->loc;

  if (auto* like = dynamic_cast<P::LikePredicateContext*>(suffix)) {
    const bool icase = like->K_ILIKE() != nullptr;
    BinaryOp op = like->K_NOT() != nullptr ? (icase ? BinaryOp::kNotILike : BinaryOp::kNotLike)
                                           : (icase ? BinaryOp::kILike : BinaryOp::kLike);
    ExprPtr pattern = TransformConcat(like->concatExpr(0));
    if (like->K_ESCAPE() != nullptr) {  // x LIKE p ESCAPE e is x ~~ like_escape(p, e)
      ExprPtr call = NewExpr(ExprKind::kFunction, pattern->loc);
      call->name = "like_escape";
      call->children.push_back(std::move(pattern));
      call->children.push_back(TransformConcat(like->concatExpr(1)));
      pattern = std::move(call);
    }
    return MakeBinary(op, std::move(operand), std::move(pattern));
  }
  if (auto* between = dynamic_cast<P::BetweenPredicateContext*>(suffix)) {
    ExprPtr e = NewExpr(ExprKind::kBetween, loc);
    e->negated = between->K_NOT() != nullptr;
    e->children.push_back(std::move(operand));
    e->children.push_back(TransformConcat(between->concatExpr(0)));
    e->children.push_back(TransformConcat(between->concatExpr(1)));
    return e;
  }
  if (auto* in_sub = dynamic_cast<P::InSubqueryPredicateContext*>(suffix)) {
    ExprPtr e = NewExpr(ExprKind::kInSubquery, loc);
    e->binary_op = BinaryOp::kEq;  // = ANY
    e->negated = in_sub->K_NOT() != nullptr;
    e->children.push_back(std::move(operand));
    e->subquery = TransformSelect(in_sub->selectStmt());
    return e;
  }
  auto* in_list = static_cast<P::InListPredicateContext*>(suffix);
  ExprPtr e = NewExpr(ExprKind::kInList, loc);
  e->negated = in_list->K_NOT() != nullptr;
  e->children.push_back(std::move(operand));
  for (P::InItemContext* item : in_list->inItem()) e->children.push_back(TransformInItem(item));
  return e;
}

ExprPtr Transformer::TransformConcat(P::ConcatExprContext* ctx) {
  std::vector<P::AdditiveExprContext*> operands = ctx->additiveExpr();
  ExprPtr left = TransformAdditive(operands[0]);
  std::vector<P::OtherOpContext*> ops = ctx->otherOp();
  for (size_t i = 0; i < ops.size(); ++i) {
    // `a || b`, `a ~ b`, or OPERATOR(pg_catalog.~): the operator token is the last terminal
    // of anyOperator, or otherOp's only one.
    antlr4::tree::TerminalNode* token = nullptr;
    if (P::AnyOperatorContext* any = ops[i]->anyOperator()) {
      token = static_cast<antlr4::tree::TerminalNode*>(any->children[0]);
      if (ops[i]->identifier() != nullptr && Identifier(ops[i]->identifier()) != "pg_catalog") {
        Fail(ErrorAt(ops[i], sqlstate::kInvalidSchemaName,
                     "schema \"" + Identifier(ops[i]->identifier()) + "\" does not exist"));
      }
    } else if (P::JsonOpContext* json = ops[i]->jsonOp()) {
      // `a -> b`: a call of the function named "->" (bound by the binder's JSON operators).
      ExprPtr call = NewExpr(ExprKind::kFunction, Loc(json));
      call->name = json->getText();
      call->children.push_back(std::move(left));
      call->children.push_back(TransformAdditive(operands[i + 1]));
      left = std::move(call);
      continue;
    } else {
      token = static_cast<antlr4::tree::TerminalNode*>(ops[i]->children.back());
    }
    BinaryOp op = OperatorOf(token->getSymbol()->getType()).value_or(BinaryOp::kConcat);
    if (ops[i]->K_NOT() != nullptr) op = BinaryOp::kRegexNotMatch;  // NOT REGEXP
    left = MakeBinary(op, std::move(left), TransformAdditive(operands[i + 1]));
  }
  return left;
}

ExprPtr Transformer::TransformAdditive(P::AdditiveExprContext* ctx) {
  return BuildChain(ctx, [&](antlr4::ParserRuleContext* c) {
    return TransformMultiplicative(static_cast<P::MultiplicativeExprContext*>(c));
  });
}

ExprPtr Transformer::TransformMultiplicative(P::MultiplicativeExprContext* ctx) {
  return BuildChain(ctx, [&](antlr4::ParserRuleContext* c) {
    return TransformAtZone(static_cast<P::AtZoneExprContext*>(c));
  });
}

ExprPtr Transformer::TransformAtZone(P::AtZoneExprContext* ctx) {
  std::vector<P::UnaryExprContext*> operands = ctx->unaryExpr();
  ExprPtr e = TransformUnary(operands[0]);
  for (size_t i = 1; i < operands.size(); ++i) {
    ExprPtr call = NewExpr(ExprKind::kFunction, Loc(ctx));
    call->name = "timezone";
    call->children.push_back(TransformUnary(operands[i]));
    call->children.push_back(std::move(e));
    e = std::move(call);
  }
  return e;
}

ExprPtr Transformer::TransformUnary(P::UnaryExprContext* ctx) {
  if (ctx->children.size() == 1) {
    return TransformCastChain(static_cast<P::CastExprContext*>(ctx->children[0]));
  }
  ExprPtr operand = TransformUnary(ctx->unaryExpr());
  bool minus = ctx->MINUS() != nullptr;
  if (minus && operand->kind == ExprKind::kLiteral &&
      (operand->literal_kind == ast::LiteralKind::kInteger ||
       operand->literal_kind == ast::LiteralKind::kFloat) &&
      operand->text.front() != '-') {
    operand->text.insert(operand->text.begin(), '-');
    operand->loc = Loc(ctx);
    return operand;
  }
  ExprPtr e = NewExpr(ExprKind::kUnary, Loc(ctx));
  e->unary_op = minus ? ast::UnaryOp::kNeg : ast::UnaryOp::kPlus;
  e->children.push_back(std::move(operand));
  return e;
}

ExprPtr Transformer::TransformCastChain(P::CastExprContext* ctx) {
  ExprPtr e = TransformPrimary(static_cast<P::PrimaryContext*>(ctx->children[0]));
  if (ctx->children.size() == 1) return e;
  for (P::SubscriptContext* sub : ctx->subscript()) {
    ExprPtr s = NewExpr(ExprKind::kSubscript, e->loc);
    s->slice = sub->COLON() != nullptr;
    s->children.push_back(std::move(e));
    s->children.push_back(TransformExpr(sub->lower));
    if (sub->upper != nullptr) s->children.push_back(TransformExpr(sub->upper));
    e = std::move(s);
  }
  for (P::CollationNameContext* collation : ctx->collationName()) CheckCollation(collation);
  for (P::TypeNameContext* type : ctx->typeName()) {
    ExprPtr cast = NewExpr(ExprKind::kCast, e->loc);
    cast->cast_type = TransformType(type);
    cast->children.push_back(std::move(e));
    e = std::move(cast);
  }
  return e;
}

ExprPtr Transformer::TransformPrimary(P::PrimaryContext* ctx) {
  ast::Location loc = Loc(ctx);
  if (auto* column = dynamic_cast<P::ColumnPrimaryContext*>(ctx)) {
    ExprPtr e = NewExpr(ExprKind::kColumnRef, loc);
    auto* first = static_cast<P::IdentifierContext*>(column->children[0]);
    if (column->children.size() == 5) {
      // schema.table.column (ORMs qualify catalog columns so: pg_catalog.pg_class.relname).
      // The column resolves through the FROM item named table; the schema must be one
      // Meridian has (public, or the system schemas), as PostgreSQL's 42P01 otherwise.
      const std::string schema = Identifier(first);
      e->table = Identifier(static_cast<P::IdentifierContext*>(column->children[2]));
      if (schema != "public" && schema != "pg_catalog" && schema != "information_schema") {
        Fail(ErrorAt(column, sqlstate::kUndefinedTable,
                     "invalid reference to FROM-clause entry for table \"" + e->table + "\""));
      }
      e->name = Identifier(static_cast<P::IdentifierContext*>(column->children[4]));
    } else if (column->children.size() == 3) {
      e->table = Identifier(first);
      e->name = Identifier(static_cast<P::IdentifierContext*>(column->children[2]));
    } else {
      e->name = Identifier(first);
      // CURRENT_USER, SESSION_USER, USER, CURRENT_ROLE, CURRENT_SCHEMA, CURRENT_CATALOG are
      // SQL value functions (reserved words in PostgreSQL): calls without parentheses.
      // CURRENT_DATE, CURRENT_TIMESTAMP, LOCALTIMESTAMP and LOCALTIME too.
      static constexpr const char* kValueFunctions[] = {
          "current_user",   "session_user",    "user",         "current_role",
          "current_schema", "current_catalog", "current_date", "current_timestamp",
          "localtimestamp", "localtime"};
      if (first->QUOTED_IDENTIFIER() == nullptr) {
        for (const char* f : kValueFunctions) {
          if (e->name == f) e->kind = ExprKind::kFunction;
        }
      }
    }
    return e;
  }
  if (auto* whole = dynamic_cast<P::WholeRowPrimaryContext*>(ctx)) {
    // t.* inside an expression (row_to_json(t.*)): the whole row of t (a select list's own
    // t.* is selectQualifiedStar, expanded to the columns).
    ExprPtr e = NewExpr(ExprKind::kStar, loc);
    e->table = Identifier(whole->identifier());
    return e;
  }
  if (auto* lit = dynamic_cast<P::LiteralPrimaryContext*>(ctx)) {
    return TransformLiteral(static_cast<P::LiteralContext*>(lit->children[0]));
  }
  if (auto* param = dynamic_cast<P::ParamPrimaryContext*>(ctx)) {
    ExprPtr e = NewExpr(ExprKind::kParam, loc);
    std::string digits = param->PARAM()->getText().substr(1);
    // PostgreSQL allows at most 65535 parameters; larger numbers cannot name one.
    if (digits.size() > 6 || std::stoi(digits) > 65535 || std::stoi(digits) < 1) {
      Fail(ErrorAt(ctx, "42P02", "there is no parameter " + param->PARAM()->getText()));
    } else {
      e->param_index = std::stoi(digits);
    }
    return e;
  }
  if (auto* paren = dynamic_cast<P::ParenPrimaryContext*>(ctx)) {
    ExprPtr e = TransformExpr(paren->expr());
    for (P::FieldSelectionContext* field : paren->fieldSelection()) {
      ExprPtr f = NewExpr(ExprKind::kFieldSelect, loc);  // PostgreSQL points at the "("
      f->name = Identifier(field->identifier());
      f->children.push_back(std::move(e));
      e = std::move(f);
    }
    if (paren->STAR() != nullptr) {
      // (t).* is t.*: the columns of t in a select list, its whole row in an expression.
      if ((e->kind == ExprKind::kColumnRef && e->table.empty()) ||
          (e->kind == ExprKind::kStar && !e->table.empty())) {
        ExprPtr star = NewExpr(ExprKind::kStar, e->loc);
        star->table = e->kind == ExprKind::kStar ? e->table : e->name;
        star->star = true;  // written (t).*: a select item only (0A000 in an expression)
        return star;
      }
      // (expr).*: the fields of a record value, expanded by the binder as a select item.
      ExprPtr star = NewExpr(ExprKind::kFieldSelect, loc);
      star->name = "*";
      star->star = true;
      star->children.push_back(std::move(e));
      return star;
    }
    return e;
  }
  if (auto* row = dynamic_cast<P::RowPrimaryContext*>(ctx)) {
    // (a, b, ...) outside a comparison: the row constructor ROW(a, b, ...).
    ExprPtr e = NewExpr(ExprKind::kFunction, loc);
    e->name = "row";
    for (P::ExprContext* x : row->expr()) e->children.push_back(TransformExpr(x));
    return e;
  }
  if (auto* sub = dynamic_cast<P::SubqueryPrimaryContext*>(ctx)) {
    ExprPtr e = NewExpr(ExprKind::kSubquery, loc);
    e->subquery = TransformSelect(sub->selectStmt());
    return e;
  }
  if (auto* exists = dynamic_cast<P::ExistsPrimaryContext*>(ctx)) {
    ExprPtr e = NewExpr(ExprKind::kExists, loc);
    e->subquery = TransformSelect(exists->selectStmt());
    return e;
  }
  if (auto* case_ctx = dynamic_cast<P::CasePrimaryContext*>(ctx)) {
    return TransformCase(case_ctx);
  }
  if (auto* cast = dynamic_cast<P::CastPrimaryContext*>(ctx)) {
    ExprPtr e = NewExpr(ExprKind::kCast, loc);
    e->cast_type = TransformType(cast->typeName());
    e->children.push_back(TransformExpr(cast->expr()));
    return e;
  }
  if (auto* typed = dynamic_cast<P::TypedLiteralPrimaryContext*>(ctx)) {
    // DATE '2026-11-22', NUMERIC '1.5', ...: a cast of the string literal (PostgreSQL's
    // AexprConst "ConstTypename Sconst").
    ExprPtr e = NewExpr(ExprKind::kCast, loc);
    e->cast_type = TransformSimpleType(typed->simpleTypeName());
    ExprPtr lit = NewExpr(ExprKind::kLiteral, Loc(typed->STRING_LITERAL()));
    lit->literal_kind = ast::LiteralKind::kString;
    lit->text = UnquoteString(typed->STRING_LITERAL()->getText());
    e->children.push_back(std::move(lit));
    return e;
  }
  if (auto* array = dynamic_cast<P::ArrayPrimaryContext*>(ctx)) {  // ARRAY(subquery)
    ExprPtr e = NewExpr(ExprKind::kArray, loc);
    e->subquery = TransformSelect(array->selectStmt());
    return e;
  }
  if (auto* array = dynamic_cast<P::ArrayListPrimaryContext*>(ctx)) {  // ARRAY[a, b, ...]
    ExprPtr e = NewExpr(ExprKind::kArray, loc);
    for (P::ArrayElementContext* element : array->arrayList()->arrayElement()) {
      if (element->arrayList() != nullptr) {
        Fail(ErrorAt(element, sqlstate::kFeatureNotSupported,
                     "multidimensional arrays are not supported yet"));
        return e;
      }
      e->children.push_back(TransformExpr(element->expr()));
    }
    return e;
  }
  // SUBSTRING(s FROM a FOR b), POSITION(a IN b), TRIM([side] [chars] FROM s), LEFT(s, n) and
  // RIGHT(s, n) become the plain calls PostgreSQL makes of them: substring(s, a, b),
  // position(b, a), btrim/ltrim/rtrim(s, chars), left(s, n), right(s, n).
  if (auto* sub = dynamic_cast<P::SubstringPrimaryContext*>(ctx)) {
    ExprPtr e = NewExpr(ExprKind::kFunction, loc);
    e->name = "substring";
    std::vector<P::ExprContext*> parts = sub->expr();
    e->children.push_back(TransformExpr(parts[0]));
    if (sub->K_FROM() == nullptr) {  // SUBSTRING(s FOR n) starts at 1
      ExprPtr one = NewExpr(ExprKind::kLiteral, loc);
      one->literal_kind = ast::LiteralKind::kInteger;
      one->text = "1";
      e->children.push_back(std::move(one));
    }
    for (size_t i = 1; i < parts.size(); ++i) e->children.push_back(TransformExpr(parts[i]));
    return e;
  }
  if (auto* overlay = dynamic_cast<P::OverlayPrimaryContext*>(ctx)) {
    // OVERLAY(s PLACING r FROM n [FOR m]) is overlay(s, r, n [, m]).
    ExprPtr e = NewExpr(ExprKind::kFunction, loc);
    e->name = "overlay";
    for (P::ExprContext* part : overlay->expr()) e->children.push_back(TransformExpr(part));
    return e;
  }
  if (auto* position = dynamic_cast<P::PositionPrimaryContext*>(ctx)) {
    ExprPtr e = NewExpr(ExprKind::kFunction, loc);
    e->name = "position";
    e->children.push_back(TransformConcat(position->concatExpr(1)));
    e->children.push_back(TransformConcat(position->concatExpr(0)));
    return e;
  }
  if (auto* trim = dynamic_cast<P::TrimPrimaryContext*>(ctx)) {
    ExprPtr e = NewExpr(ExprKind::kFunction, loc);
    const size_t side =
        trim->side == nullptr ? static_cast<size_t>(P::K_BOTH) : trim->side->getType();
    e->name = side == P::K_LEADING ? "ltrim" : side == P::K_TRAILING ? "rtrim" : "btrim";
    std::vector<P::ExprContext*> parts = trim->expr();
    const size_t first = trim->chars != nullptr ? 1 : 0;
    for (size_t i = first; i < parts.size(); ++i) e->children.push_back(TransformExpr(parts[i]));
    if (trim->chars != nullptr) e->children.push_back(TransformExpr(trim->chars));
    return e;
  }
  if (auto* left_right = dynamic_cast<P::LeftRightPrimaryContext*>(ctx)) {
    ExprPtr e = NewExpr(ExprKind::kFunction, loc);
    e->name = left_right->K_LEFT() != nullptr ? "left" : "right";
    for (P::ExprContext* arg : left_right->expr()) e->children.push_back(TransformExpr(arg));
    return e;
  }
  if (auto* extract = dynamic_cast<P::ExtractPrimaryContext*>(ctx)) {
    // EXTRACT(field FROM source) is extract('field', source); no other function has this form.
    if (Identifier(extract->fn) != "extract") {
      Fail(ErrorAt(extract, sqlstate::kSyntaxError,
                   "syntax error at or near \"" + extract->K_FROM()->getText() + "\""));
    }
    ExprPtr e = NewExpr(ExprKind::kFunction, loc);
    e->name = "extract";
    ExprPtr field = NewExpr(ExprKind::kLiteral, Loc(extract->field));
    field->literal_kind = ast::LiteralKind::kString;
    field->text = Identifier(extract->field);
    e->children.push_back(std::move(field));
    e->children.push_back(TransformExpr(extract->expr()));
    return e;
  }
  if (auto* star_fn = dynamic_cast<P::StarFunctionPrimaryContext*>(ctx)) {
    ExprPtr e = NewExpr(ExprKind::kFunction, loc);
    e->name = Identifier(star_fn->identifier());
    e->star = true;
    if (star_fn->aggFilter() != nullptr) e->filter = TransformExpr(star_fn->aggFilter()->expr());
    if (star_fn->overClause() != nullptr) e->over = TransformOver(star_fn->overClause());
    return e;
  }
  auto* fn = static_cast<P::FunctionPrimaryContext*>(ctx);
  return TransformFunction(fn);
}

ExprPtr Transformer::TransformLiteral(P::LiteralContext* ctx) {
  ExprPtr e = NewExpr(ExprKind::kLiteral, Loc(ctx));
  auto* token = static_cast<antlr4::tree::TerminalNode*>(ctx->children[0]);
  switch (token->getSymbol()->getType()) {
    case P::INTEGER_LITERAL:
      e->literal_kind = ast::LiteralKind::kInteger;
      e->text = token->getText();
      break;
    case P::DECIMAL_LITERAL:
      e->literal_kind = ast::LiteralKind::kFloat;
      e->text = token->getText();
      break;
    case P::STRING_LITERAL:
      e->literal_kind = ast::LiteralKind::kString;
      e->text = UnquoteString(token->getText());
      break;
    case P::ESCAPE_STRING: {
      e->literal_kind = ast::LiteralKind::kString;
      Result<std::string> value = DecodeEscapeString(token->getText());
      if (!value.ok()) {
        Fail(ErrorAt(ctx, value.status().sqlstate().c_str(), value.status().message()));
        break;
      }
      e->text = std::move(value).value();
      break;
    }
    case P::DOLLAR_STRING: {  // $tag$body$tag$: the body as written, no escapes
      const std::string text = token->getText();
      const size_t delimiter = text.find('$', 1) + 1;
      e->literal_kind = ast::LiteralKind::kString;
      e->text = text.substr(delimiter, text.size() - 2 * delimiter);
      break;
    }
    case P::K_TRUE:
    case P::K_FALSE:
      e->literal_kind = ast::LiteralKind::kBool;
      e->bool_value = token->getSymbol()->getType() == P::K_TRUE;
      break;
    default:
      e->literal_kind = ast::LiteralKind::kNull;
      break;
  }
  return e;
}

ExprPtr Transformer::TransformCase(P::CasePrimaryContext* ctx) {
  ExprPtr e = NewExpr(ExprKind::kCase, Loc(ctx));
  e->has_case_operand = ctx->operand != nullptr;
  e->has_else = ctx->elseExpr != nullptr;
  // expr() lists the operand, the WHEN/THEN pairs and the ELSE expression in source order.
  for (P::ExprContext* part : ctx->expr()) e->children.push_back(TransformExpr(part));
  return e;
}

ExprPtr Transformer::TransformFunction(P::FunctionPrimaryContext* ctx) {
  ExprPtr e = NewExpr(ExprKind::kFunction, Loc(ctx));
  std::string schema;
  QualifiedName(ctx->qualifiedName(), &schema, &e->name);
  // Every built-in function lives in pg_catalog; another schema names no function.
  if (!schema.empty() && schema != "pg_catalog") e->name = schema + "." + e->name;
  e->distinct = ctx->K_DISTINCT() != nullptr;
  for (P::ExprContext* arg : ctx->expr()) e->children.push_back(TransformExpr(arg));
  if (P::AggOrderByContext* order = ctx->aggOrderBy()) {
    for (P::OrderItemContext* item : order->orderItem()) {
      e->agg_order.push_back(TransformOrderItem(item));
    }
  }
  // The ordered-set aggregates take their sort keys from WITHIN GROUP (ORDER BY ...), which
  // becomes the call's agg_order; WITHIN GROUP is theirs alone, and they need it.
  const bool ordered_set =
      e->name == "percentile_cont" || e->name == "percentile_disc" || e->name == "mode";
  // The hypothetical-set aggregates share their names with window functions.
  const bool hypothetical = e->name == "rank" || e->name == "dense_rank" ||
                            e->name == "percent_rank" || e->name == "cume_dist";
  if (hypothetical && ctx->withinGroup() == nullptr && ctx->aggOrderBy() != nullptr) {
    Fail(ErrorAt(ctx, sqlstate::kWrongObjectType,
                 "WITHIN GROUP is required for ordered-set aggregate " + e->name));
  }
  if (P::WithinGroupContext* within = ctx->withinGroup()) {
    if (!(ordered_set || hypothetical) || ctx->aggOrderBy() != nullptr || e->distinct) {
      // PostgreSQL counts the WITHIN GROUP keys as arguments: no such function (42883).
      Fail(ErrorAt(within, sqlstate::kUndefinedFunction,
                   "function " + e->name + " with WITHIN GROUP does not exist (only " +
                       "percentile_cont, percentile_disc, mode, rank, dense_rank, " +
                       "percent_rank and cume_dist take WITHIN GROUP)"));
    } else if (ctx->overClause() != nullptr) {
      Fail(ErrorAt(ctx->overClause(), sqlstate::kFeatureNotSupported,
                   "OVER is not supported for ordered-set aggregate " + e->name));
    }
    for (P::OrderItemContext* item : within->aggOrderBy()->orderItem()) {
      e->agg_order.push_back(TransformOrderItem(item));
    }
  } else if (ordered_set) {
    Fail(ErrorAt(ctx, sqlstate::kUndefinedFunction,
                 "function " + e->name + " without WITHIN GROUP does not exist"));
  }
  if (ctx->aggFilter() != nullptr) e->filter = TransformExpr(ctx->aggFilter()->expr());
  if (ctx->overClause() != nullptr) e->over = TransformOver(ctx->overClause());
  return e;
}

void Transformer::CheckCollation(P::CollationNameContext* ctx) {
  std::vector<P::IdentifierContext*> ids = ctx->identifier();
  const bool qualified = ctx->DOT() != nullptr;
  std::string schema = qualified ? Identifier(ids[0]) : "";
  std::string name = ctx->K_DEFAULT() != nullptr ? "default" : Identifier(ids.back());
  if ((schema.empty() || schema == "pg_catalog") &&
      (name == "default" || name == "C" || name == "POSIX" || name == "c" || name == "posix")) {
    return;
  }
  std::string full = schema.empty() ? name : schema + "." + name;
  Fail(ErrorAt(ctx, sqlstate::kUndefinedObject,
               "collation \"" + full + "\" for encoding \"UTF8\" does not exist"));
}

}  // namespace meridian::parser
