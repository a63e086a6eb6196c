// The compiled form of an expression: a flat list of typed nodes (children before parents) that
// both backends interpret row by row. Compilation (compile.cpp) resolves dtypes and inserts the
// casts that type promotion needs, so every arithmetic node sees operands of its own dtype.
// Plain data only: a Program's nodes and constants are copied to the GPU as they are.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/column.hpp"
#include "core/hd.hpp"
#include "core/types.hpp"

namespace gpudf::expr {

/// Operations after compilation. Binary arithmetic nodes have both operands of the node's dtype.
enum class Op : int32_t {
  Column,     // p0: input index
  Literal,    // p0: constant index; p1 = 1 for null
  Cast,       // arg0 -> node type (non-strict: values that do not fit become null)
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow,
  Neg, Abs, Round,  // Round: p0 decimals
  Floor, Ceil, Sqrt, Exp, Log,
  Eq, Neq, Lt, Lte, Gt, Gte,  // operands of any comparable dtypes (exact across numeric types)
  And, Or, Xor, Not,          // Kleene logic
  IsNull, IsNotNull, IsNaN,
  FillNull,   // arg0 valid ? arg0 : arg1
  FillNaN,    // arg0 is NaN ? arg1 : arg0
  IsIn,       // p0: first constant, p1: count
  Select,     // arg0 (bool; null = false) ? arg1 : arg2
  StrLen, StrLenBytes,
  StrContains, StrStartsWith, StrEndsWith,  // p0: constant index of the pattern
  StrLike,    // p0: constant index of the SQL LIKE pattern (`%`, `_`)
  StrSlice,   // p0: start (characters; negative counts from the end), p1: length (< 0: to the end)
  StrStrip,   // p0: constant index of the characters (-1: Unicode whitespace); p1: 1 start, 2 end, 3 both
  StrStripPrefix, StrStripSuffix,  // p0: constant index of the affix
  StrHead, StrTail,  // p0: characters (negative: all but that many from the other end)
  StrSplitPart,      // p0: constant index of the separator; p1: field * 4 + (1: inclusive, 2: rest)
  Year, Month, Day, Hour, Minute, Second, Weekday,
  Quarter, IsoWeek, IsoYear, OrdinalDay, Millisecond, Microsecond, Nanosecond,
  Epoch,       // p0: the unit (0 s, 1 ms, 2 us, 3 ns, 4 days)
  MonthStart, MonthEnd,  // the same time of day on the month's first / last day
  TruncateTo, RoundTo,   // p0: months (> 0: calendar months) or p1: a fixed interval in the dtype's units
  OffsetBy,    // p0: calendar months, then p1: a fixed interval in the dtype's units
  ScaleTicks,  // int64 arg0 * p0 (null on overflow) / p1 (toward zero): a duration's count in another unit
};

/// How a value sits in a Slot: integers (every integer dtype but uint64, bool, date32 and
/// timestamps) in `i`, normalised to the dtype's range; uint64 in `u`; floats in `f` (float32
/// rounded to float precision); strings as a (pointer, byte length) view.
enum class Lane : int32_t { Int, UInt64, Float, String };

GPUDF_HD inline Lane lane_of(TypeId t) {
  switch (t) {
    case TypeId::UInt64: return Lane::UInt64;
    case TypeId::Float32:
    case TypeId::Float64: return Lane::Float;
    case TypeId::Utf8:
    case TypeId::LargeUtf8: return Lane::String;
    default: return Lane::Int;
  }
}

struct Slot {
  union {
    int64_t i;
    uint64_t u;
    double f;
    const char* s;
  };
  int64_t n;  // strings: byte length
};

struct Node {
  Op op;
  TypeId type;          // the node's result dtype
  int32_t arg[3];       // operand node indices (-1: none)
  int64_t p0, p1;       // op parameters (see Op)
};

/// What a compiled program reads while it runs (plain pointers, valid on the program's device).
struct ProgramView {
  const Node* nodes = nullptr;
  int32_t num_nodes = 0;
  const ColumnView* inputs = nullptr;
  const Slot* consts = nullptr;
  const TypeId* const_types = nullptr;
};

/// A compiled program with the host copies of everything it reads.
struct Program {
  std::vector<Node> nodes;           // the last node is the result
  std::vector<ColumnPtr> inputs;     // columns read by Column nodes (may include materialised ones)
  std::vector<Slot> consts;          // string constants hold an offset into `text` in `i`
  std::vector<TypeId> const_types;
  std::string text;                  // bytes of string constants
  int64_t rows = 0;                  // rows the program produces
  TypeId result_type() const { return nodes.back().type; }
  /// Constants with string pointers resolved against `text_base` (host or device copy of text).
  std::vector<Slot> bound_consts(const char* text_base) const;
};

/// Programs larger than this are refused (ERR_INVALID_ARGUMENT): the GPU interpreter keeps one
/// slot per node per thread.
inline constexpr int32_t kMaxNodes = 256;

}  // namespace gpudf::expr
