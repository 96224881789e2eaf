// Status and Result<T>: how recoverable failures (I/O, bad input, config, network) travel across
// engine library boundaries. Invariant violations use SS_CHECK (check.h) instead.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "engine/core/check.h"

namespace syncscope::engine {

/// What kind of failure a Status carries; callers branch on it, people read the message.
enum class StatusCode { Ok, InvalidArgument, NotFound, DataLoss, Unavailable, Internal, Cancelled };

/// A success, or a failure with a message written for the person who must fix it:
/// what was wrong, which value, what to do.
class Status {
public:
    Status() = default;
    Status(StatusCode code, std::string message) : m_code(code), m_message(std::move(message)) {}

    static Status ok() { return {}; }
    bool isOk() const { return m_code == StatusCode::Ok; }
    explicit operator bool() const { return isOk(); }
    StatusCode code() const { return m_code; }
    const std::string& message() const { return m_message; }

private:
    StatusCode m_code = StatusCode::Ok;
    std::string m_message;
};

inline Status invalidArgument(std::string message) { return {StatusCode::InvalidArgument, std::move(message)}; }
inline Status notFound(std::string message) { return {StatusCode::NotFound, std::move(message)}; }
inline Status dataLoss(std::string message) { return {StatusCode::DataLoss, std::move(message)}; }
inline Status unavailable(std::string message) { return {StatusCode::Unavailable, std::move(message)}; }
inline Status cancelled(std::string message) { return {StatusCode::Cancelled, std::move(message)}; }

/// A value or the Status saying why there is none.
template <typename T>
class Result {
public:
    Result(T value) : m_value(std::move(value)) {}  // NOLINT: implicit by design, like std::expected
    Result(Status status) : m_status(std::move(status)) {}  // NOLINT

    bool isOk() const { return m_value.has_value(); }
    explicit operator bool() const { return isOk(); }
    const Status& status() const { return m_status; }
    /// The value; asking a failed Result for one is a bug (aborts with file:line and the status).
    T& value() & { return checked(); }
    const T& value() const& { return const_cast<Result*>(this)->checked(); }
    T&& value() && { return std::move(checked()); }
    T* operator->() { return &checked(); }
    const T* operator->() const { return &const_cast<Result*>(this)->checked(); }
    T& operator*() { return checked(); }
    const T& operator*() const { return const_cast<Result*>(this)->checked(); }

private:
    T& checked() {
        SS_CHECK(m_value.has_value(), ("a Result without a value was read: " + m_status.message()).c_str());
        return *m_value;
    }

    std::optional<T> m_value;
    Status m_status;
};

}  // namespace syncscope::engine
