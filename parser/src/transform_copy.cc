// COPY table [(columns)] FROM STDIN and COPY {table [(columns)] | (query)} TO STDOUT, with the
// options in parentheses (FORMAT, HEADER, DELIMITER, NULL, QUOTE, ESCAPE, ENCODING) or in the
// pre-9.0 form (CSV HEADER DELIMITER AS ','). Options are checked here as PostgreSQL's
// ProcessCopyOptions does; files and PROGRAM are refused (the server never opens client files).

#include "transformer.h"

namespace meridian::parser {
namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string UnquoteCopyString(const std::string& text) {
  std::string out;
  for (size_t i = 1; i + 1 < text.size(); ++i) {
    out += text[i];
    if (text[i] == '\'') ++i;
  }
  return out;
}

}  // namespace

std::unique_ptr<ast::CopyStmt> Transformer::TransformCopy(P::CopyStmtContext* ctx) {
  auto out = std::make_unique<ast::CopyStmt>();
  out->from = ctx->K_FROM() != nullptr;
  if (ctx->qualifiedName() != nullptr) {
    QualifiedName(ctx->qualifiedName(), &out->schema, &out->table);
    out->table_loc = Loc(ctx->qualifiedName());
    for (P::IdentifierContext* id : ctx->identifier()) {
      if (id == ctx->identifier().back() && ctx->STRING_LITERAL() == nullptr) break;  // STDIN
      out->columns.push_back(Identifier(id));
      out->column_locs.push_back(Loc(id));
    }
  } else {
    if (out->from) {
      Fail(ErrorAt(ctx, sqlstate::kSyntaxError, "syntax error at or near \"FROM\""));
      return out;
    }
    out->query = TransformSelect(ctx->selectStmt());
  }
  if (ctx->STRING_LITERAL() != nullptr) {
    Fail(ErrorAt(ctx, sqlstate::kFeatureNotSupported,
                 std::string("COPY ") + (out->from ? "from" : "to") + " a file is not supported")
             .WithHint(out->from ? "Use COPY ... FROM STDIN, for example psql's \\copy."
                                 : "Use COPY ... TO STDOUT, for example psql's \\copy."));
    return out;
  }
  P::IdentifierContext* target = ctx->identifier().back();
  const std::string where = Identifier(target);
  if (where != (out->from ? "stdin" : "stdout")) {
    Fail(ErrorAt(target, sqlstate::kSyntaxError,
                 "syntax error at or near \"" + std::string(SourceOf(target)) + "\""));
    return out;
  }

  // Collect (name, value) pairs from either option syntax.
  struct Option {
    std::string name;
    std::optional<std::string> value;
    antlr4::ParserRuleContext* at;
  };
  std::vector<Option> options;
  for (P::CopyOptionContext* o : ctx->copyOption()) {
    Option opt{Lower(o->children[0]->getText()), std::nullopt, o};
    if (o->identifier() != nullptr) opt.name = Identifier(o->identifier());
    if (P::CopyOptionValueContext* v = o->copyOptionValue()) {
      if (v->STRING_LITERAL() != nullptr) {
        opt.value = UnquoteCopyString(v->STRING_LITERAL()->getText());
      } else if (v->identifier() != nullptr) {
        opt.value = Identifier(v->identifier());
      } else {
        opt.value = Lower(v->getText());
      }
    }
    options.push_back(std::move(opt));
  }
  for (P::CopyLegacyOptionContext* o : ctx->copyLegacyOption()) {
    Option opt{Lower(o->children[0]->getText()), std::nullopt, o};
    if (o->identifier() != nullptr) opt.name = Identifier(o->identifier());
    if (o->STRING_LITERAL() != nullptr) {
      opt.value = UnquoteCopyString(o->STRING_LITERAL()->getText());
    }
    if (opt.name == "csv" || opt.name == "binary") {  // legacy: CSV means FORMAT csv
      opt.value = opt.name;
      opt.name = "format";
    }
    options.push_back(std::move(opt));
  }

  bool seen_format = false, seen_header = false, seen_delimiter = false, seen_null = false,
       seen_quote = false, seen_escape = false;
  std::optional<std::string> delimiter, null_string, quote, escape;
  auto redundant = [&](bool* seen, antlr4::ParserRuleContext* at) {
    if (*seen) {
      Fail(ErrorAt(at, sqlstate::kSyntaxError, "conflicting or redundant options"));
      return true;
    }
    *seen = true;
    return false;
  };
  auto needs_value = [&](const Option& o) {
    if (!o.value) {
      Fail(ErrorAt(o.at, sqlstate::kSyntaxError, o.name + " requires a parameter"));
      return false;
    }
    return true;
  };
  for (const Option& o : options) {
    if (o.name == "format") {
      if (redundant(&seen_format, o.at) || !needs_value(o)) return out;
      if (*o.value == "csv") {
        out->csv = true;
      } else if (*o.value == "binary") {
        Fail(ErrorAt(o.at, sqlstate::kFeatureNotSupported,
                     "COPY format \"binary\" is not supported yet"));
        return out;
      } else if (*o.value != "text") {
        Fail(ErrorAt(o.at, sqlstate::kInvalidParameterValue,
                     "COPY format \"" + *o.value + "\" not recognized"));
        return out;
      }
    } else if (o.name == "header") {
      if (redundant(&seen_header, o.at)) return out;
      std::string v = o.value ? Lower(*o.value) : "true";
      if (v == "true" || v == "on" || v == "1") {
        out->header = true;
      } else if (v == "false" || v == "off" || v == "0") {
        out->header = false;
      } else if (v == "match") {
        Fail(ErrorAt(o.at, sqlstate::kFeatureNotSupported, "HEADER MATCH is not supported yet"));
        return out;
      } else {
        Fail(ErrorAt(o.at, sqlstate::kInvalidParameterValue,
                     "header requires a Boolean value or \"match\""));
        return out;
      }
    } else if (o.name == "delimiter") {
      if (redundant(&seen_delimiter, o.at) || !needs_value(o)) return out;
      delimiter = o.value;
    } else if (o.name == "null") {
      if (redundant(&seen_null, o.at) || !needs_value(o)) return out;
      null_string = o.value;
    } else if (o.name == "quote") {
      if (redundant(&seen_quote, o.at) || !needs_value(o)) return out;
      quote = o.value;
    } else if (o.name == "escape") {
      if (redundant(&seen_escape, o.at) || !needs_value(o)) return out;
      escape = o.value;
    } else if (o.name == "encoding") {
      if (!needs_value(o)) return out;
      std::string v = Lower(*o.value);
      if (v != "utf8" && v != "utf-8" && v != "unicode") {
        Fail(ErrorAt(o.at, sqlstate::kFeatureNotSupported,
                     "COPY encoding \"" + *o.value + "\" is not supported")
                 .WithDetail("Only UTF8 is supported."));
        return out;
      }
    } else if (o.name == "freeze") {
      // PostgreSQL writes the rows already frozen (a hint for a table created or truncated in
      // the same transaction); Meridian's rows need no freezing: accepted, no effect.
      std::string v = o.value ? Lower(*o.value) : "true";
      if (v != "true" && v != "on" && v != "1" && v != "false" && v != "off" && v != "0") {
        Fail(ErrorAt(o.at, sqlstate::kInvalidParameterValue, "freeze requires a Boolean value"));
        return out;
      }
    } else if (o.name == "force_quote" || o.name == "force_not_null" ||
               o.name == "force_null" || o.name == "oids") {
      Fail(ErrorAt(o.at, sqlstate::kFeatureNotSupported,
                   "COPY option \"" + o.name + "\" is not supported yet"));
      return out;
    } else {
      Fail(ErrorAt(o.at, sqlstate::kSyntaxError, "option \"" + o.name + "\" not recognized"));
      return out;
    }
  }

  auto one_byte = [&](const std::optional<std::string>& v, const char* what, char* slot) {
    if (!v) return true;
    if (v->size() != 1) {
      Fail(ErrorAt(ctx, sqlstate::kFeatureNotSupported,
                   std::string("COPY ") + what + " must be a single one-byte character"));
      return false;
    }
    *slot = (*v)[0];
    return true;
  };
  out->delimiter = out->csv ? ',' : '\t';
  out->null_string = out->csv ? "" : "\\N";
  if (!one_byte(delimiter, "delimiter", &out->delimiter)) return out;
  if (null_string) out->null_string = *null_string;
  if ((quote || escape) && !out->csv) {
    Fail(ErrorAt(
        ctx, sqlstate::kFeatureNotSupported,
        std::string("COPY ") + (quote ? "quote" : "escape") + " available only in CSV mode"));
    return out;
  }
  if (!one_byte(quote, "quote", &out->quote)) return out;
  out->escape = out->quote;
  if (!one_byte(escape, "escape", &out->escape)) return out;
  if (out->delimiter == '\n' || out->delimiter == '\r') {
    Fail(ErrorAt(ctx, sqlstate::kInvalidParameterValue,
                 "COPY delimiter cannot be newline or carriage return"));
  } else if (out->null_string.find_first_of("\r\n") != std::string::npos) {
    Fail(ErrorAt(ctx, sqlstate::kInvalidParameterValue,
                 "COPY null representation cannot use newline or carriage return"));
  } else if (!out->csv &&
             (out->delimiter == '\\' || std::isalnum(static_cast<unsigned char>(out->delimiter)))) {
    Fail(ErrorAt(ctx, sqlstate::kInvalidParameterValue,
                 "COPY delimiter cannot be \"" + std::string(1, out->delimiter) + "\""));
  } else if (out->csv && out->delimiter == out->quote) {
    Fail(ErrorAt(ctx, sqlstate::kInvalidParameterValue,
                 "COPY delimiter and quote must be different"));
  } else if (out->null_string.find(out->delimiter) != std::string::npos) {
    Fail(ErrorAt(ctx, sqlstate::kInvalidParameterValue,
                 "COPY delimiter must not appear in the NULL specification"));
  }
  return out;
}

}  // namespace meridian::parser
