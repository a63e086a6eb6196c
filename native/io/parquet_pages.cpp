#include "io/parquet_pages.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/bitmask.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "io/parquet_bits.hpp"
#include "io/parquet_stats.hpp"
#include "io/snappy.hpp"
#include "io/zstd_codec.hpp"

namespace gpudf::parquet {
namespace {

template <typename T>
inline void store(char* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

template <typename T>
inline T load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

/// PLAIN values of fixed-width types, plus min/max in the dtype's own order (unsigned for
/// uints, NaN ignored for floats).
template <TypeId T, typename P>
void put_fixed(std::string& out, const ColumnView& v, int64_t b, int64_t e, int64_t valid, Statistics& st) {
  using S = storage_t<T>;
  const S* src = v.values<S>();
  const size_t pos = out.size();
  out.resize(pos + size_t(valid) * sizeof(P));
  char* dst = out.data() + pos;
  MinMax<S, P> mm;
  if (valid == e - b) {
    if constexpr (sizeof(S) == sizeof(P)) {
      // Same width: the bits are the stored value (uint32 / uint64 as INT32 / INT64).
      std::memcpy(dst, src + b, size_t(e - b) * sizeof(P));
    } else {
      for (int64_t i = b; i < e; ++i, dst += sizeof(P)) store(dst, P(src[i]));
    }
    for (int64_t i = b; i < e; ++i) mm.add(src[i]);
  } else {
    for (int64_t i = b; i < e; ++i) {
      if (!v.is_valid(i)) continue;
      const S x = src[i];
      store(dst, P(x));
      dst += sizeof(P);
      mm.add(x);
    }
  }
  mm.store(st, valid);
}

/// PLAIN booleans: one bit per non-null value, LSB first.
void put_bools(std::string& out, const ColumnView& v, int64_t b, int64_t e, int64_t valid, Statistics& st) {
  const uint8_t* src = v.values<uint8_t>();
  const size_t pos = out.size();
  out.resize(pos + size_t((valid + 7) / 8), '\0');
  uint8_t* dst = reinterpret_cast<uint8_t*>(out.data() + pos);
  bool any_true = false, any_false = false;
  int64_t k = 0;
  if (valid == e - b) {
    int64_t i = b;
    for (; i + 8 <= e; i += 8, ++k) {
      uint8_t byte = 0;
      for (int j = 0; j < 8; ++j) byte |= uint8_t((src[i + j] != 0) << j);
      dst[k] = byte;
      any_true |= byte != 0;
      any_false |= byte != 0xFF;
    }
    for (int64_t j = 0; i < e; ++i, ++j) {
      const bool x = src[i] != 0;
      dst[k] |= uint8_t(x << j);
      any_true |= x;
      any_false |= !x;
    }
  } else {
    for (int64_t i = b; i < e; ++i) {
      if (!v.is_valid(i)) continue;
      const bool x = src[i] != 0;
      if (x) dst[k >> 3] |= uint8_t(1u << (k & 7));
      any_true |= x;
      any_false |= !x;
      ++k;
    }
  }
  if (valid == 0) return;
  st.has_min_max = true;
  st.min = std::string(1, char(any_false ? 0 : 1));
  st.max = std::string(1, char(any_true ? 1 : 0));
}

/// PLAIN byte arrays: a 4-byte length, then the bytes, per non-null value.
template <typename O>
void put_strings(std::string& out, const ColumnView& v, int64_t b, int64_t e, int64_t valid) {
  const O* offs = v.string_offsets<O>();
  const char* chars = reinterpret_cast<const char*>(v.data);
  int64_t bytes = int64_t(offs[e] - offs[b]);
  if (valid != e - b) {
    bytes = 0;
    for (int64_t i = b; i < e; ++i)
      if (v.is_valid(i)) bytes += int64_t(offs[i + 1] - offs[i]);
  }
  const size_t pos = out.size();
  out.resize(pos + size_t(valid) * 4 + size_t(bytes));
  char* dst = out.data() + pos;
  for (int64_t i = b; i < e; ++i) {
    if (valid != e - b && !v.is_valid(i)) continue;
    const O len = offs[i + 1] - offs[i];
    GPUDF_EXPECTS(int64_t(len) <= std::numeric_limits<int32_t>::max(), InvalidArgument,
                  "a string longer than 2 GiB cannot be stored in Parquet");
    store(dst, uint32_t(len));
    std::memcpy(dst + 4, chars + offs[i], size_t(len));
    dst += 4 + size_t(len);
  }
}

struct PutValues {
  template <TypeId T>
  void operator()(std::string& out, const ColumnView& v, int64_t b, int64_t e, int64_t valid,
                  Statistics& st) const {
    using S = storage_t<T>;
    if constexpr (T == TypeId::Bool) {
      put_bools(out, v, b, e, valid, st);
    } else if constexpr (is_string(T)) {
      put_strings<typename S::offset_type>(out, v, b, e, valid);
    } else if constexpr (std::is_floating_point_v<S>) {
      put_fixed<T, S>(out, v, b, e, valid, st);
    } else if constexpr (sizeof(S) <= 4) {
      put_fixed<T, int32_t>(out, v, b, e, valid, st);
    } else {
      put_fixed<T, int64_t>(out, v, b, e, valid, st);
    }
  }
};

template <typename C>
bool less_as(const std::string& a, const std::string& b) {
  return load<C>(a.data()) < load<C>(b.data());
}

bool less_stat(TypeId t, const std::string& a, const std::string& b) {
  switch (column_type(t).physical) {
    case Physical::Boolean: return less_as<uint8_t>(a, b);
    case Physical::Float: return less_as<float>(a, b);
    case Physical::Double: return less_as<double>(a, b);
    case Physical::Int32: return t == TypeId::UInt32 ? less_as<uint32_t>(a, b) : less_as<int32_t>(a, b);
    case Physical::Int64: return t == TypeId::UInt64 ? less_as<uint64_t>(a, b) : less_as<int64_t>(a, b);
    case Physical::ByteArray: return a < b;
    case Physical::Int96:
    case Physical::FixedLenByteArray: break;  // never written by gpudf
  }
  return false;
}

}  // namespace

void put_definition_levels(std::string& out, const uint8_t* validity, int64_t bit_offset, int64_t n,
                           int64_t nulls) {
  const size_t len_pos = out.size();
  out.append(4, '\0');
  if (nulls == 0 || nulls == n) {
    put_varint(out, uint64_t(n) << 1);
    out.push_back(char(nulls == 0 ? 1 : 0));
  } else {
    const int64_t groups = (n + 7) / 8;
    put_varint(out, (uint64_t(groups) << 1) | 1);
    const size_t pos = out.size();
    out.resize(pos + size_t(groups), '\0');
    copy_bits(reinterpret_cast<uint8_t*>(out.data() + pos), 0, validity, bit_offset, n);
  }
  store(out.data() + len_pos, uint32_t(out.size() - len_pos - 4));
}

std::vector<int64_t> page_bounds(const ColumnView& v, int64_t begin, int64_t end) {
  std::vector<int64_t> bounds{begin};
  if (is_string(v.type)) {
    // Cut where the PLAIN bytes (4 + length per value) pass kPageBytes: offsets[r] + 4r grows
    // with r, so each cut is a binary search.
    auto cost = [&](int64_t r) -> int64_t {
      const int64_t off = v.type == TypeId::Utf8 ? int64_t(v.string_offsets<int32_t>()[r])
                                                 : v.string_offsets<int64_t>()[r];
      return off + 4 * r;
    };
    int64_t r = begin;
    while (r < end) {
      const int64_t limit = cost(r) + kPageBytes;
      int64_t lo = r + 1, hi = end;  // first row whose cost reaches the limit, at least r + 1
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (cost(mid) >= limit) hi = mid;
        else lo = mid + 1;
      }
      r = lo;
      bounds.push_back(r);
    }
    return bounds;
  }
  const int64_t rows_per_page = std::max<int64_t>(1, kPageBytes / std::max(1, value_width(v.type)));
  for (int64_t r = begin; r < end;) {
    r = std::min(end, r + rows_per_page);
    bounds.push_back(r);
  }
  return bounds;
}

namespace {

/// Compresses `plain` into page.body (unless stored as is, when plain is page.body already).
void finish_body(EncodedPage& page, const std::string& plain, Codec codec, int zstd_level) {
  page.uncompressed_body = int64_t(plain.size());
  switch (codec) {
    case Codec::Uncompressed: break;
    case Codec::Snappy:
      snappy::compress(reinterpret_cast<const uint8_t*>(plain.data()), plain.size(), page.body);
      break;
    case Codec::Zstd:
      zstd::compress(reinterpret_cast<const uint8_t*>(plain.data()), plain.size(), zstd_level, page.body);
      break;
    default:  // the other codecs are read, never written
      GPUDF_FAIL(Internal, "the Parquet writer compresses with zstd, snappy or nothing");
  }
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  GPUDF_EXPECTS(page.uncompressed_body <= kMax && int64_t(page.body.size()) <= kMax, InvalidArgument,
                "a Parquet page would exceed 2 GiB (a single value too large?)");
}

/// The per-thread buffer a page is built in before compression (not kept when huge).
std::string& scratch_buffer() {
  thread_local std::string scratch;
  if (scratch.capacity() > size_t(4 * kPageBytes)) std::string().swap(scratch);
  scratch.clear();
  return scratch;
}

}  // namespace

EncodedPage encode_page(const ColumnView& v, int64_t begin, int64_t end, Codec codec, int zstd_level,
                        const Dictionary* dictionary) {
  EncodedPage page;
  const int64_t n = end - begin;
  const int64_t nulls = v.validity ? n - count_set_bits(v.validity, v.offset + begin, v.offset + end) : 0;
  page.stats.null_count = nulls;
  // The page goes straight into the body when it is stored uncompressed.
  std::string& plain = codec == Codec::Uncompressed ? page.body : scratch_buffer();
  put_definition_levels(plain, v.validity, v.offset + begin, n, nulls);
  if (dictionary) {
    put_dictionary_indices(plain, v, *dictionary, begin, end);
  } else {
    type_dispatch(v.type, PutValues{}, plain, v, begin, end, n - nulls, page.stats);
  }
  finish_body(page, plain, codec, zstd_level);
  encode_data_page_header(page.header, int32_t(page.uncompressed_body), int32_t(page.body.size()), int32_t(n),
                          dictionary ? kRleDictionary : kPlain);
  return page;
}

EncodedPage encode_dictionary_page(const ColumnView& v, const Dictionary& dictionary, Codec codec, int zstd_level) {
  EncodedPage page;
  std::string& plain = codec == Codec::Uncompressed ? page.body : scratch_buffer();
  put_dictionary_page(plain, v, dictionary, page.stats);
  finish_body(page, plain, codec, zstd_level);
  encode_dictionary_page_header(page.header, int32_t(page.uncompressed_body), int32_t(page.body.size()),
                                int32_t(dictionary.entries.size()));
  return page;
}

void merge_statistics(Statistics& chunk, const Statistics& page, TypeId type) {
  chunk.null_count += page.null_count;
  if (!page.has_min_max) return;
  if (!chunk.has_min_max) {
    chunk.has_min_max = true;
    chunk.min = page.min;
    chunk.max = page.max;
    return;
  }
  if (less_stat(type, page.min, chunk.min)) chunk.min = page.min;
  if (less_stat(type, chunk.max, page.max)) chunk.max = page.max;
}

}  // namespace gpudf::parquet
