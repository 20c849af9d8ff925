// Result printers of the shell: psql-style aligned tables, CSV (RFC 4180) and JSON. Each is a
// client::ResultHandler, so results print while they stream; the aligned printer buffers one
// statement's rows (as text) to size its columns, as psql does.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "meridian/client/statement_result.h"

namespace meridian::shell {

enum class OutputFormat { kAligned, kCsv, kJson };

// Parses "aligned" / "csv" / "json"; false when unknown.
bool ParseOutputFormat(std::string_view text, OutputFormat* format);

// Display width of UTF-8 text: one column per code point.
size_t DisplayWidth(std::string_view text);

// A psql-style aligned table of text cells (no NULL distinction: NULL prints empty).
struct TextTable {
  std::string title;  // centered above the table when not empty
  std::vector<std::string> headers;
  std::vector<bool> right_align;  // per column
  std::vector<std::vector<std::string>> rows;
  bool footer = true;                     // "(N rows)"
  std::vector<std::string> footer_lines;  // printed after the rows (e.g. "Primary key: (a)")
};
void PrintAlignedTable(const TextTable& table, std::ostream& out);

// CSV field quoting (RFC 4180): quoted when it holds ',', '"', CR or LF, or is empty (an empty
// string prints "" and NULL prints nothing, as in PostgreSQL's COPY ... CSV).
std::string CsvField(std::string_view value);
// JSON string literal with escapes.
std::string JsonString(std::string_view value);
// One cell's JSON form: null, true/false, a bare number for numeric values, else a string.
std::string JsonValue(const client::Value& value, const client::ColumnInfo& column);

class ResultPrinter : public client::ResultHandler {
 public:
  // Notices go to err ("NOTICE:  ..."), results to out.
  static std::unique_ptr<ResultPrinter> Create(OutputFormat format, std::ostream& out,
                                               std::ostream& err);
  ~ResultPrinter() override = default;

  void OnNotice(const std::string& notice) override;
  // Rows printed for the statements seen so far.
  uint64_t rows_printed() const { return rows_printed_; }

 protected:
  ResultPrinter(std::ostream& out, std::ostream& err) : out_(out), err_(err) {}
  std::ostream& out_;
  std::ostream& err_;
  uint64_t rows_printed_ = 0;
};

}  // namespace meridian::shell
