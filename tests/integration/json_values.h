// Reading a JSON document the way the tests did with QJsonValue, on nlohmann::json: a member that is
// missing or of another type reads as 0, false, "" or an empty array or object, never as an exception.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace syncscope::testing {

using Json = nlohmann::json;

/// The document in `text`; a discarded value (is_discarded()) when it is not JSON.
inline Json parseJson(const std::string& text) { return Json::parse(text, nullptr, false); }

/// `object[key]`; null when `object` is not an object or has no such member.
inline const Json& jsonMember(const Json& object, const std::string& key) {
    static const Json null;
    if (!object.is_object()) return null;
    const auto it = object.find(key);
    return it == object.end() ? null : *it;
}

inline double jsonDouble(const Json& v) { return v.is_number() ? v.get<double>() : 0.0; }
/// QJsonValue::toInteger: a whole number that fits, else 0.
inline long long jsonInteger(const Json& v) {
    if (v.is_number_integer()) return v.get<long long>();
    if (!v.is_number_float()) return 0;
    const double d = v.get<double>();
    return std::trunc(d) == d && std::fabs(d) < 9.2e18 ? static_cast<long long>(d) : 0;
}
/// QJsonValue::toInt: a whole number that fits an int, else 0.
inline int jsonInt(const Json& v) {
    const long long n = jsonInteger(v);
    return n >= std::numeric_limits<int>::min() && n <= std::numeric_limits<int>::max() ? int(n) : 0;
}
inline bool jsonBool(const Json& v) { return v.is_boolean() && v.get<bool>(); }
inline std::string jsonString(const Json& v) { return v.is_string() ? v.get<std::string>() : std::string(); }
inline const Json& jsonArray(const Json& v) {
    static const Json empty = Json::array();
    return v.is_array() ? v : empty;
}
inline const Json& jsonObject(const Json& v) {
    static const Json empty = Json::object();
    return v.is_object() ? v : empty;
}

}  // namespace syncscope::testing
