// SET [SESSION | LOCAL] name {TO | =} value [, ...] | DEFAULT, SET TIME ZONE value, SHOW name,
// SHOW ALL, RESET name, RESET ALL, SHOW / RESET TRANSACTION ISOLATION LEVEL
// (transaction_isolation). Values keep their written form (strings unquoted, identifiers folded,
// numbers with their sign); the engine checks names and values.

#include "transformer.h"

namespace meridian::parser {
namespace {

std::string UnquoteSetString(const std::string& text) {
  std::string out;
  for (size_t i = 1; i + 1 < text.size(); ++i) {
    out += text[i];
    if (text[i] == '\'') ++i;  // '' stands for one '
  }
  return out;
}

}  // namespace

std::unique_ptr<ast::VariableStmt> Transformer::TransformSet(P::SetStmtContext* ctx) {
  auto out = std::make_unique<ast::VariableStmt>();
  std::vector<P::SetValueContext*> values;
  if (auto* tz = dynamic_cast<P::SetTimeZoneContext*>(ctx)) {
    out->name = "timezone";
    out->name_loc = Loc(tz->K_TIME());
    out->local = tz->K_LOCAL() != nullptr;
    out->to_default = tz->K_DEFAULT() != nullptr;
    if (tz->setValue() != nullptr) values.push_back(tz->setValue());
  } else {
    auto* set = static_cast<P::SetConfigContext*>(ctx);
    out = TransformShowOrReset(nullptr, nullptr, nullptr, set->configName());
    out->local = set->K_LOCAL() != nullptr;
    out->to_default = set->K_DEFAULT() != nullptr;
    values = set->setValue();
  }
  for (P::SetValueContext* v : values) {
    if (v->STRING_LITERAL() != nullptr) {
      out->values.push_back(UnquoteSetString(v->STRING_LITERAL()->getText()));
    } else if (v->identifier() != nullptr) {
      out->values.push_back(Identifier(v->identifier()));
    } else if (v->K_ON() != nullptr || v->K_TRUE() != nullptr || v->K_FALSE() != nullptr) {
      std::string word = v->getText();
      for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      out->values.push_back(word);
    } else {
      std::string number;
      if (v->MINUS() != nullptr) number = "-";
      number += v->INTEGER_LITERAL() != nullptr ? v->INTEGER_LITERAL()->getText()
                                                : v->DECIMAL_LITERAL()->getText();
      out->values.push_back(number);
    }
  }
  return out;
}

std::unique_ptr<ast::VariableStmt> Transformer::TransformShowOrReset(
    antlr4::tree::TerminalNode* all, antlr4::tree::TerminalNode* time_zone,
    antlr4::tree::TerminalNode* transaction, P::ConfigNameContext* name) {
  auto out = std::make_unique<ast::VariableStmt>();
  if (all != nullptr) {
    out->all = true;
    out->name = "all";
    out->name_loc = Loc(all);
  } else if (time_zone != nullptr) {
    out->name = "timezone";
    out->name_loc = Loc(time_zone);
  } else if (transaction != nullptr) {
    out->name = "transaction_isolation";
    out->name_loc = Loc(transaction);
  } else {
    out->name_loc = Loc(name);
    if (name->identifier().size() == 1) {
      out->name = Identifier(name->identifier(0));
    } else {
      for (P::IdentifierContext* id : name->identifier()) {  // a.b: custom option names
        if (!out->name.empty()) out->name += ".";
        out->name += Identifier(id);
      }
    }
  }
  return out;
}

}  // namespace meridian::parser
