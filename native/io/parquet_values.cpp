#include "io/parquet_values.hpp"

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "io/parquet_format.hpp"

namespace gpudf::parquet {
namespace {

[[noreturn]] void unsupported(const ColumnSchema& c, int32_t encoding) {
  GPUDF_FAIL(Parquet, std::string("encoding ") + encoding_name(encoding) + " (" + std::to_string(encoding) +
                          ") is not supported for " + c.type_text);
}

uint32_t le32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

/// DELTA_BINARY_PACKED: exactly n values (as 64-bit integers) into out; returns the reader past
/// the encoded bytes.
ByteReader delta_binary_packed(ByteReader in, int64_t n, int64_t* out) {
  const char* what = "DELTA_BINARY_PACKED values";
  const uint64_t block = in.uleb(what);
  const uint64_t minis = in.uleb(what);
  const uint64_t total = in.uleb(what);
  uint64_t last = uint64_t(in.zigzag(what));
  GPUDF_EXPECTS(block > 0 && block % 128 == 0 && block <= (1u << 20) && minis > 0 && block % minis == 0 &&
                    (block / minis) % 32 == 0,
                Parquet, std::string(what) + ": bad block header");
  GPUDF_EXPECTS(int64_t(total) == n, Parquet,
                std::string(what) + ": holds " + std::to_string(total) + " values where the page has " + std::to_string(n));
  const uint64_t per_mini = block / minis;
  int64_t got = 0;
  if (n > 0) out[got++] = int64_t(last);
  while (got < n) {
    const uint64_t min_delta = uint64_t(in.zigzag(what));
    in.need(size_t(minis), what);
    const uint8_t* widths = in.p;
    in.p += minis;
    for (uint64_t m = 0; m < minis && got < n; ++m) {
      const int w = widths[m];
      GPUDF_EXPECTS(w <= 64, Parquet, std::string(what) + ": a bit width above 64");
      const uint64_t full = per_mini * uint64_t(w) / 8;
      const int64_t k = std::min<int64_t>(int64_t(per_mini), n - got);
      const size_t needed = size_t((uint64_t(k) * uint64_t(w) + 7) / 8);
      in.need(needed, what);
      const size_t avail = std::min<size_t>(size_t(full), in.left());
      for (int64_t i = 0; i < k; ++i) {
        last += min_delta + read_bits(in.p, avail, uint64_t(i) * uint64_t(w), w);
        out[got++] = int64_t(last);
      }
      in.p += avail;
    }
  }
  return in;
}

template <typename T>
void store_ints(const HostVector<int64_t>& v, uint8_t* out) {
  for (size_t i = 0; i < v.size(); ++i) {
    const T x = T(v[i]);
    std::memcpy(out + i * sizeof(T), &x, sizeof(T));
  }
}

/// Dictionary indices (bit width byte, then the hybrid) of n values into idx, each checked.
void dictionary_indices(ByteReader in, int64_t n, const PageDictionary* dict, HostVector<uint32_t>& idx) {
  GPUDF_EXPECTS(dict != nullptr, Parquet, "a dictionary-encoded page without a dictionary page");
  idx.resize(size_t(n));
  if (n == 0) return;
  in.need(1, "dictionary indices");
  const int width = *in.p++;
  HybridDecoder dec(in.p, in.end, width, "dictionary indices");
  dec.get(idx.data(), n);
  uint32_t worst = 0;
  for (uint32_t x : idx) worst = std::max(worst, x);
  GPUDF_EXPECTS(int64_t(worst) < dict->count, Parquet,
                "dictionary index " + std::to_string(worst) + " out of range (the dictionary has " +
                    std::to_string(dict->count) + " entries)");
}

void plain_byte_arrays(ByteReader in, int64_t n, uint32_t* lens, HostString& bytes) {
  // Two passes: lengths first (checked), then one copy of the bytes.
  const uint8_t* start = in.p;
  size_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    in.need(4, "BYTE_ARRAY values");
    const uint32_t len = le32(in.p);
    in.p += 4;
    in.need(len, "BYTE_ARRAY values");
    in.p += len;
    lens[i] = len;
    total += len;
  }
  const size_t base = bytes.size();
  bytes.resize(base + total);
  char* dst = bytes.data() + base;
  const uint8_t* p = start;
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(dst, p + 4, lens[i]);
    dst += lens[i];
    p += 4 + lens[i];
  }
}

ByteReader delta_length_byte_arrays(ByteReader in, int64_t n, uint32_t* lens, HostString& bytes) {
  HostVector<int64_t> l(static_cast<size_t>(n));
  in = delta_binary_packed(in, n, l.data());
  size_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    GPUDF_EXPECTS(l[size_t(i)] >= 0 && l[size_t(i)] <= int64_t(in.left()), Parquet,
                  "DELTA_LENGTH_BYTE_ARRAY: a length beyond the page");
    lens[i] = uint32_t(l[size_t(i)]);
    total += lens[i];
  }
  in.need(total, "DELTA_LENGTH_BYTE_ARRAY values");
  bytes.append(reinterpret_cast<const char*>(in.p), total);
  in.p += total;
  return in;
}

void delta_byte_arrays(ByteReader in, int64_t n, uint32_t* lens, HostString& bytes) {
  HostVector<int64_t> prefix(static_cast<size_t>(n));
  in = delta_binary_packed(in, n, prefix.data());
  HostVector<uint32_t> suffix_lens(static_cast<size_t>(n));
  HostString suffixes;
  delta_length_byte_arrays(in, n, suffix_lens.data(), suffixes);
  size_t sp = 0;
  size_t prev_start = bytes.size(), prev_len = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t pre = prefix[size_t(i)];
    GPUDF_EXPECTS(pre >= 0 && size_t(pre) <= prev_len, Parquet, "DELTA_BYTE_ARRAY: a prefix longer than the previous value");
    const size_t start = bytes.size();
    // The prefix is copied out of the previous value after growing (which may move the bytes).
    bytes.resize(start + size_t(pre));
    if (pre > 0) std::memcpy(bytes.data() + start, bytes.data() + prev_start, size_t(pre));
    bytes.append(suffixes, sp, suffix_lens[size_t(i)]);
    sp += suffix_lens[size_t(i)];
    lens[i] = uint32_t(bytes.size() - start);
    prev_start = start;
    prev_len = lens[i];
  }
}

}  // namespace

void read_dictionary(const ColumnSchema& c, ByteReader in, int64_t n, PageDictionary& d) {
  GPUDF_EXPECTS(c.physical != Physical::Boolean, Parquet, "a dictionary page for a BOOLEAN column");
  d = PageDictionary();
  d.count = n;
  if (c.physical == Physical::ByteArray) {
    GPUDF_EXPECTS(uint64_t(n) * 4 <= in.left(), Parquet, "a dictionary page shorter than its entries");
    HostVector<uint32_t> lens(static_cast<size_t>(n));
    plain_byte_arrays(in, n, lens.data(), d.bytes);
    d.offsets.resize(size_t(n) + 1);
    d.offsets[0] = 0;
    for (int64_t i = 0; i < n; ++i) d.offsets[size_t(i) + 1] = d.offsets[size_t(i)] + lens[size_t(i)];
    return;
  }
  const size_t w = size_t(stored_width(c));
  GPUDF_EXPECTS(uint64_t(n) <= in.left() / w, Parquet, "a dictionary page shorter than its entries");
  d.fixed.assign(in.p, in.p + size_t(n) * w);
}

void decode_fixed(const ColumnSchema& c, int32_t encoding, ByteReader in, int64_t n, const PageDictionary* dict,
                  uint8_t* out) {
  const size_t w = size_t(stored_width(c));
  if (n == 0) return;
  switch (encoding) {
    case kPlain:
      if (c.physical == Physical::Boolean) {
        in.need(size_t((n + 7) / 8), "BOOLEAN values");
        for (int64_t i = 0; i < n; ++i) out[i] = (in.p[i >> 3] >> (i & 7)) & 1;
        return;
      }
      GPUDF_EXPECTS(uint64_t(n) <= in.left() / w, Parquet, "PLAIN values run past the end of the page");
      std::memcpy(out, in.p, size_t(n) * w);
      return;
    case kRle: {
      if (c.physical != Physical::Boolean) unsupported(c, encoding);
      in.need(4, "RLE booleans");
      const uint32_t len = le32(in.p);
      in.p += 4;
      in.need(len, "RLE booleans");
      HostVector<uint32_t> v(static_cast<size_t>(n));
      HybridDecoder(in.p, in.p + len, 1, "RLE booleans").get(v.data(), n);
      for (int64_t i = 0; i < n; ++i) out[i] = uint8_t(v[size_t(i)]);
      return;
    }
    case kPlainDictionary:
    case kRleDictionary: {
      HostVector<uint32_t> idx;
      dictionary_indices(in, n, dict, idx);
      const uint8_t* src = dict->fixed.data();
      if (w == 4) {
        for (int64_t i = 0; i < n; ++i) std::memcpy(out + i * 4, src + size_t(idx[size_t(i)]) * 4, 4);
      } else if (w == 8) {
        for (int64_t i = 0; i < n; ++i) std::memcpy(out + i * 8, src + size_t(idx[size_t(i)]) * 8, 8);
      } else {
        for (int64_t i = 0; i < n; ++i) std::memcpy(out + size_t(i) * w, src + size_t(idx[size_t(i)]) * w, w);
      }
      return;
    }
    case kDeltaBinaryPacked: {
      if (c.physical != Physical::Int32 && c.physical != Physical::Int64) unsupported(c, encoding);
      HostVector<int64_t> v(static_cast<size_t>(n));
      delta_binary_packed(in, n, v.data());
      if (c.physical == Physical::Int32) store_ints<int32_t>(v, out);
      else store_ints<int64_t>(v, out);
      return;
    }
    case kByteStreamSplit: {
      if (c.physical == Physical::Boolean || c.physical == Physical::Int96) unsupported(c, encoding);
      GPUDF_EXPECTS(uint64_t(n) <= in.left() / w, Parquet, "BYTE_STREAM_SPLIT values run past the end of the page");
      for (size_t b = 0; b < w; ++b) {
        const uint8_t* stream = in.p + b * size_t(n);
        for (int64_t i = 0; i < n; ++i) out[size_t(i) * w + b] = stream[i];
      }
      return;
    }
    case kDeltaByteArray: {
      if (c.physical != Physical::FixedLenByteArray) unsupported(c, encoding);
      HostVector<uint32_t> lens(static_cast<size_t>(n));
      HostString bytes;
      delta_byte_arrays(in, n, lens.data(), bytes);
      for (int64_t i = 0; i < n; ++i) {
        GPUDF_EXPECTS(lens[size_t(i)] == w, Parquet, "DELTA_BYTE_ARRAY: a value of the wrong fixed length");
      }
      std::memcpy(out, bytes.data(), bytes.size());
      return;
    }
    default: unsupported(c, encoding);
  }
}

void decode_byte_arrays(const ColumnSchema& c, int32_t encoding, ByteReader in, int64_t n, const PageDictionary* dict,
                        uint32_t* lens, HostString& bytes) {
  if (n == 0) return;
  switch (encoding) {
    case kPlain: plain_byte_arrays(in, n, lens, bytes); return;
    case kPlainDictionary:
    case kRleDictionary: {
      HostVector<uint32_t> idx;
      dictionary_indices(in, n, dict, idx);
      const int64_t* off = dict->offsets.data();
      size_t total = 0;
      for (int64_t i = 0; i < n; ++i) {
        const uint32_t k = idx[size_t(i)];
        lens[i] = uint32_t(off[k + 1] - off[k]);
        total += lens[i];
      }
      const size_t base = bytes.size();
      bytes.resize(base + total);
      char* dst = bytes.data() + base;
      const char* src = dict->bytes.data();
      for (int64_t i = 0; i < n; ++i) {
        std::memcpy(dst, src + off[idx[size_t(i)]], lens[i]);
        dst += lens[i];
      }
      return;
    }
    case kDeltaLengthByteArray: delta_length_byte_arrays(in, n, lens, bytes); return;
    case kDeltaByteArray: delta_byte_arrays(in, n, lens, bytes); return;
    default: unsupported(c, encoding);
  }
}

}  // namespace gpudf::parquet
