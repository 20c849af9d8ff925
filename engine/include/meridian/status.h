// Status and Result<T>: how every layer below the session boundary reports errors.
// An error carries a PostgreSQL SQLSTATE, a message and optional detail, hint and 1-based
// character position in the request; the server maps it to gRPC and PG wire errors in one place.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>

namespace meridian {

// SQLSTATE codes used by Meridian (PostgreSQL's values, Appendix A of its manual).
namespace sqlstate {
inline constexpr const char* kSuccessfulCompletion = "00000";
inline constexpr const char* kConnectionFailure = "08006";
inline constexpr const char* kFeatureNotSupported = "0A000";
inline constexpr const char* kStringDataRightTruncation = "22001";
inline constexpr const char* kNumericValueOutOfRange = "22003";
inline constexpr const char* kInvalidTextRepresentation = "22P02";
inline constexpr const char* kBadCopyFileFormat = "22P04";
inline constexpr const char* kInvalidParameterValue = "22023";
inline constexpr const char* kCantChangeRuntimeParam = "55P02";
inline constexpr const char* kInsufficientPrivilege = "42501";
inline constexpr const char* kInvalidSchemaName = "3F000";
inline constexpr const char* kDivisionByZero = "22012";
inline constexpr const char* kNotNullViolation = "23502";
inline constexpr const char* kCheckViolation = "23514";
inline constexpr const char* kUniqueViolation = "23505";
inline constexpr const char* kInvalidTransactionState = "25000";
inline constexpr const char* kSerializationFailure = "40001";
inline constexpr const char* kDeadlockDetected = "40P01";
inline constexpr const char* kLockNotAvailable = "55P03";
inline constexpr const char* kActiveSqlTransaction = "25001";
inline constexpr const char* kNoActiveSqlTransaction = "25P01";
inline constexpr const char* kInFailedSqlTransaction = "25P02";
inline constexpr const char* kReadOnlySqlTransaction = "25006";
inline constexpr const char* kInvalidSavepointSpecification = "3B001";
inline constexpr const char* kSyntaxError = "42601";
inline constexpr const char* kWrongObjectType = "42809";
inline constexpr const char* kObjectNotInPrerequisiteState = "55000";
inline constexpr const char* kDependentObjectsStillExist = "2BP01";
inline constexpr const char* kGeneratedAlways = "428C9";
inline constexpr const char* kSequenceGeneratorLimitExceeded = "2200H";
inline constexpr const char* kCardinalityViolation = "21000";
inline constexpr const char* kUndefinedColumn = "42703";
inline constexpr const char* kUndefinedTable = "42P01";
inline constexpr const char* kUndefinedParameter = "42P02";
inline constexpr const char* kDuplicateTable = "42P07";
inline constexpr const char* kUndefinedObject = "42704";
inline constexpr const char* kDuplicateColumn = "42701";
inline constexpr const char* kAmbiguousColumn = "42702";
inline constexpr const char* kDatatypeMismatch = "42804";
inline constexpr const char* kUndefinedFunction = "42883";
inline constexpr const char* kInvalidColumnReference = "42P10";
inline constexpr const char* kGroupingError = "42803";
inline constexpr const char* kTooManyArguments = "54023";
inline constexpr const char* kWindowingError = "42P20";
inline constexpr const char* kInsufficientResources = "53000";
inline constexpr const char* kDiskFull = "53100";
inline constexpr const char* kOutOfMemory = "53200";
inline constexpr const char* kQueryCanceled = "57014";
inline constexpr const char* kAdminShutdown = "57P01";
inline constexpr const char* kIoError = "58030";
inline constexpr const char* kProgramLimitExceeded = "54000";
inline constexpr const char* kTooManyColumns = "54011";
inline constexpr const char* kStatementTooComplex = "54001";
inline constexpr const char* kInvalidRegularExpression = "2201B";
inline constexpr const char* kInvalidEscapeSequence = "22025";
inline constexpr const char* kInternalError = "XX000";
inline constexpr const char* kDataCorrupted = "XX001";
inline constexpr const char* kConnectionDoesNotExist = "08003";
inline constexpr const char* kProtocolViolation = "08P01";
inline constexpr const char* kNullValueNotAllowed = "22004";
inline constexpr const char* kInvalidDatetimeFormat = "22007";
inline constexpr const char* kDatetimeFieldOverflow = "22008";
inline constexpr const char* kInvalidTimeZoneDisplacementValue = "22009";
inline constexpr const char* kSubstringError = "22011";
inline constexpr const char* kInvalidPrecedingOrFollowingSize = "22013";
inline constexpr const char* kInvalidArgumentForNtileFunction = "22014";
inline constexpr const char* kIntervalFieldOverflow = "22015";
inline constexpr const char* kInvalidArgumentForNthValueFunction = "22016";
inline constexpr const char* kInvalidArgumentForLogarithm = "2201E";
inline constexpr const char* kInvalidArgumentForPowerFunction = "2201F";
inline constexpr const char* kInvalidArgumentForWidthBucketFunction = "2201G";
inline constexpr const char* kInvalidRowCountInLimitClause = "2201W";
inline constexpr const char* kInvalidRowCountInResultOffsetClause = "2201X";
inline constexpr const char* kCharacterNotInRepertoire = "22021";
inline constexpr const char* kArraySubscriptError = "2202E";
inline constexpr const char* kInvalidBinaryRepresentation = "22P03";
inline constexpr const char* kUntranslatableCharacter = "22P05";
inline constexpr const char* kForeignKeyViolation = "23503";
inline constexpr const char* kInvalidSqlStatementName = "26000";
inline constexpr const char* kInvalidAuthorizationSpecification = "28000";
inline constexpr const char* kInvalidPassword = "28P01";
inline constexpr const char* kInvalidCursorName = "34000";
inline constexpr const char* kInvalidCatalogName = "3D000";
inline constexpr const char* kDuplicateObject = "42710";
inline constexpr const char* kDuplicateAlias = "42712";
inline constexpr const char* kAmbiguousFunction = "42725";
inline constexpr const char* kInvalidForeignKey = "42830";
inline constexpr const char* kCannotCoerce = "42846";
inline constexpr const char* kDuplicateCursor = "42P03";
inline constexpr const char* kDuplicatePreparedStatement = "42P05";
inline constexpr const char* kInvalidTableDefinition = "42P16";
inline constexpr const char* kInvalidObjectDefinition = "42P17";
inline constexpr const char* kIndeterminateDatatype = "42P18";
inline constexpr const char* kInvalidRecursion = "42P19";
inline constexpr const char* kObjectInUse = "55006";
inline constexpr const char* kIndexCorrupted = "XX002";
inline constexpr const char* kReservedName = "42939";
inline constexpr const char* kDuplicateSchema = "42P06";
}  // namespace sqlstate

struct ErrorInfo {
  std::string sqlstate;
  std::string message;
  std::string detail;
  std::string hint;
  std::string context;    // where it happened, e.g. "COPY t, line 3, column b: \"x\""
  uint32_t position = 0;  // 1-based character offset into the request text; 0 = none
};

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  static Status Ok() { return Status(); }
  static Status Error(std::string sqlstate, std::string message) {
    Status s;
    s.err_ = std::make_shared<ErrorInfo>();
    s.err_->sqlstate = std::move(sqlstate);
    s.err_->message = std::move(message);
    return s;
  }
  static Status IOError(std::string message) {
    return Error(sqlstate::kIoError, std::move(message));
  }
  static Status Corruption(std::string message) {
    return Error(sqlstate::kDataCorrupted, std::move(message));
  }
  static Status Internal(std::string message) {
    return Error(sqlstate::kInternalError, std::move(message));
  }
  static Status NotSupported(std::string message) {
    return Error(sqlstate::kFeatureNotSupported, std::move(message));
  }

  bool ok() const { return err_ == nullptr; }
  explicit operator bool() const { return ok(); }

  // Accessors; valid only when !ok().
  const ErrorInfo& error() const { return *err_; }
  const std::string& sqlstate() const { return err_->sqlstate; }
  const std::string& message() const { return err_->message; }
  uint32_t position() const { return err_ ? err_->position : 0; }

  // Builders; no-ops on an OK status.
  Status& WithDetail(std::string detail) {
    if (err_) Mutable().detail = std::move(detail);
    return *this;
  }
  Status& WithHint(std::string hint) {
    if (err_) Mutable().hint = std::move(hint);
    return *this;
  }
  Status& WithContext(std::string context) {
    if (err_) Mutable().context = std::move(context);
    return *this;
  }
  Status& WithPosition(uint32_t position) {
    if (err_ && position != 0) Mutable().position = position;
    return *this;
  }
  // Sets the position only when none is set yet (the innermost, most precise one wins).
  Status& WithPositionIfUnset(uint32_t position) {
    if (err_ && err_->position == 0 && position != 0) Mutable().position = position;
    return *this;
  }

  std::string ToString() const {
    if (ok()) return "OK";
    return err_->sqlstate + ": " + err_->message;
  }

 private:
  ErrorInfo& Mutable() {
    if (err_.use_count() > 1) err_ = std::make_shared<ErrorInfo>(*err_);
    return *err_;
  }
  std::shared_ptr<ErrorInfo> err_;  // null when OK; copy-on-write
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}         // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {}  // NOLINT: must be an error
  bool ok() const { return v_.index() == 0; }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<1>(v_);
  }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> v_;
};

#define MERIDIAN_CONCAT_INNER(a, b) a##b
#define MERIDIAN_CONCAT(a, b) MERIDIAN_CONCAT_INNER(a, b)

#define MERIDIAN_RETURN_IF_ERROR(expr) \
  do {                                 \
    ::meridian::Status _st = (expr);   \
    if (!_st.ok()) return _st;         \
  } while (0)

#define MERIDIAN_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                   \
  if (!tmp.ok()) return tmp.status();                  \
  lhs = std::move(tmp).value()

// MERIDIAN_ASSIGN_OR_RETURN(auto x, ComputeResult());
#define MERIDIAN_ASSIGN_OR_RETURN(lhs, expr) \
  MERIDIAN_ASSIGN_OR_RETURN_IMPL(MERIDIAN_CONCAT(_res_, __LINE__), lhs, expr)

}  // namespace meridian
