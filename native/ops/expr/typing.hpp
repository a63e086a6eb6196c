// Type rules of the expression compiler (typing.cpp): Polars' supertypes and how JS literals
// adapt to the other operand. Host only; used by compile.cpp.
#pragma once

#include <optional>

#include "core/types.hpp"
#include "ops/expr/expr.hpp"

namespace gpudf::expr {

/// Literals without an explicit dtype adapt to the other operand ("weak" literals).
enum class Weak { None, Int, Float, Null };

/// How a JS literal without a dtype behaves: an integral number in int64 range or a BigInt is
/// Int, other numbers Float, null Null; strings, booleans and Dates have a fixed dtype (None).
Weak weak_kind(const LiteralSpec& v);

/// The dtype a literal gets when nothing adapts it: Int -> int32 if it fits, else int64, else
/// uint64; Float -> float64; Null -> float64; string -> utf8; bool; Date -> timestamp[ms].
TypeId default_type(const LiteralSpec& v);

/// True when the literal's value is exactly representable in dtype t.
bool literal_fits(const LiteralSpec& v, TypeId t);

/// The literal as a slot of dtype t (strings: offset into `text`, appended). Throws ERR_DTYPE
/// or ERR_INVALID_ARGUMENT when it does not convert.
Slot literal_slot(const LiteralSpec& v, TypeId t, std::string& text);

/// Polars' arithmetic supertype of two numeric dtypes; nullopt when there is none.
std::optional<TypeId> numeric_supertype(TypeId a, TypeId b);

/// The supertype for fillNull/when: numeric as above, strings (large_utf8 wins), temporals (the
/// finer unit), bool with bool.
std::optional<TypeId> value_supertype(TypeId a, TypeId b);

/// The dtype a weak literal takes next to an operand of dtype `other`; nullopt when it cannot
/// (e.g. a number next to a string). `for_compare`: integer literals that do not fit keep their
/// own dtype (the comparison is exact anyway).
std::optional<TypeId> adapt_weak(const LiteralSpec& v, Weak w, TypeId other, bool for_compare);

bool is_numeric(TypeId t);

/// Whether cast(from -> to) is supported.
bool castable(TypeId from, TypeId to);

}  // namespace gpudf::expr
