// Helpers for parser tests: parse-one-statement shortcuts and a compact S-expression dump of
// expression trees, so precedence and shape can be asserted as one string.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "meridian/parser/parser.h"

namespace meridian::parser::testing {

inline std::string Dump(const ast::Expr* e);

inline std::string DumpChildren(const ast::Expr& e, size_t from = 0) {
  std::string out;
  for (size_t i = from; i < e.children.size(); ++i) {
    out += ' ';
    out += Dump(e.children[i].get());
  }
  return out;
}

inline std::string Dump(const ast::Expr* e) {
  if (e == nullptr) return "DEFAULT";
  switch (e->kind) {
    case ast::ExprKind::kLiteral:
      switch (e->literal_kind) {
        case ast::LiteralKind::kNull:
          return "NULL";
        case ast::LiteralKind::kBool:
          return e->bool_value ? "TRUE" : "FALSE";
        case ast::LiteralKind::kString:
          return "'" + e->text + "'";
        case ast::LiteralKind::kInteger:
          return e->text;
        case ast::LiteralKind::kFloat:
          return e->text + "f";
      }
      return "?";
    case ast::ExprKind::kColumnRef:
      return e->table.empty() ? e->name : e->table + "." + e->name;
    case ast::ExprKind::kStar:
      return e->table.empty() ? "*" : e->table + ".*";
    case ast::ExprKind::kParam:
      return "$" + std::to_string(e->param_index);
    case ast::ExprKind::kUnary: {
      const char* op = e->unary_op == ast::UnaryOp::kNeg    ? "-"
                       : e->unary_op == ast::UnaryOp::kPlus ? "+"
                                                            : "NOT";
      return std::string("(") + op + DumpChildren(*e) + ")";
    }
    case ast::ExprKind::kBinary:
      return "(" + std::string(ast::OperatorName(e->binary_op)) + DumpChildren(*e) + ")";
    case ast::ExprKind::kIsNull:
      return std::string(e->negated ? "(ISNOTNULL" : "(ISNULL") + DumpChildren(*e) + ")";
    case ast::ExprKind::kBooleanTest: {
      const char* value = e->literal_kind == ast::LiteralKind::kNull ? "UNKNOWN"
                          : e->bool_value                            ? "TRUE"
                                                                     : "FALSE";
      return std::string(e->negated ? "(ISNOT" : "(IS") + value + DumpChildren(*e) + ")";
    }
    case ast::ExprKind::kFunction:
      if (e->star) return e->name + "(*)";
      return e->name + "(" + (e->distinct ? "DISTINCT" : "") + DumpChildren(*e) + ")";
    case ast::ExprKind::kCast: {
      std::string type = e->cast_type.name;
      if (e->cast_type.modifier >= 0) type += "(" + std::to_string(e->cast_type.modifier) + ")";
      if (e->cast_type.array) type += "[]";
      return "(CAST" + DumpChildren(*e) + " " + type + ")";
    }
    case ast::ExprKind::kCase: {
      std::string out = "(CASE";
      size_t i = 0;
      if (e->has_case_operand) out += " " + Dump(e->children[i++].get());
      size_t end = e->children.size() - (e->has_else ? 1 : 0);
      for (; i + 1 < end; i += 2) {
        out += " WHEN " + Dump(e->children[i].get()) + " THEN " + Dump(e->children[i + 1].get());
      }
      if (e->has_else) out += " ELSE " + Dump(e->children.back().get());
      return out + ")";
    }
    case ast::ExprKind::kInList:
      return std::string(e->negated ? "(NOTIN" : "(IN") + DumpChildren(*e) + ")";
    case ast::ExprKind::kBetween:
      return std::string(e->negated ? "(NOTBETWEEN" : "(BETWEEN") + DumpChildren(*e) + ")";
    case ast::ExprKind::kSubquery:
      return "(SUBQUERY)";
    case ast::ExprKind::kExists:
      return e->negated ? "(NOTEXISTS)" : "(EXISTS)";
    case ast::ExprKind::kInSubquery:
      return std::string(e->negated ? "(NOTINSUB" : "(INSUB") + DumpChildren(*e) + ")";
    case ast::ExprKind::kQuantifiedArray:
      return "(" + std::string(ast::OperatorName(e->binary_op)) + (e->all ? " ALL" : " ANY") +
             DumpChildren(*e) + ")";
    case ast::ExprKind::kArray:
      return e->subquery != nullptr ? "(ARRAYSUB)" : "(ARRAY" + DumpChildren(*e) + ")";
    case ast::ExprKind::kSubscript:
      return std::string(e->slice ? "(SLICE" : "(SUBSCRIPT") + DumpChildren(*e) + ")";
    case ast::ExprKind::kFieldSelect:
      return "(FIELD " + e->name + DumpChildren(*e) + ")";
  }
  return "?";
}

// Parses sql, which must hold exactly one statement.
inline ast::Statement ParseOne(std::string_view sql) {
  auto result = Parse(sql);
  EXPECT_TRUE(result.ok()) << sql << " -> " << result.status().ToString();
  if (!result.ok() || result->size() != 1) {
    ADD_FAILURE() << "expected one statement from: " << sql;
    return {};
  }
  return std::move(result->front());
}

// Dump of a standalone expression, or the error as "ERROR <sqlstate>: <message>".
inline std::string DumpExpr(std::string_view sql) {
  auto result = ParseExpression(sql);
  if (!result.ok()) return "ERROR " + result.status().ToString();
  return Dump(result->get());
}

}  // namespace meridian::parser::testing
