#include "io/parquet_metadata.hpp"

#include "core/error.hpp"
#include "io/thrift_compact.hpp"

namespace gpudf::parquet {
namespace {

using thrift::CompactReader;
using thrift::CType;

/// Calls f(id, type) for each field of the struct being entered.
template <typename F>
void fields(CompactReader& r, F&& f) {
  r.begin_struct();
  int16_t id;
  CType t;
  while (r.next_field(id, t)) f(id, t);
}

/// Calls f(type) for each element of a list field.
template <typename F>
void elements(CompactReader& r, CType t, F&& f) {
  CType e;
  const size_t n = r.read_list(t, e);
  for (size_t i = 0; i < n; ++i) f(e);
}

void read_statistics(CompactReader& r, Statistics& s) {
  std::string old_min, old_max;
  bool has_old = false, has_new_min = false, has_new_max = false;
  s.has_null_count = false;
  fields(r, [&](int16_t id, CType t) {
    switch (id) {
      case 1: old_max = r.read_binary(t); has_old = true; break;
      case 2: old_min = r.read_binary(t); break;
      case 3: s.null_count = r.read_i64(t); s.has_null_count = true; break;
      case 5: s.max = r.read_binary(t); has_new_max = true; break;
      case 6: s.min = r.read_binary(t); has_new_min = true; break;
      default: r.skip(t);
    }
  });
  if (has_new_min && has_new_max) {
    s.has_min_max = true;
  } else if (has_old) {
    // The deprecated min/max: signed order; the caller only trusts them for signed types.
    s.min = old_min;
    s.max = old_max;
    s.has_min_max = true;
    s.legacy_min_max = true;
  }
}

void read_logical(CompactReader& r, SchemaElement& e) {
  fields(r, [&](int16_t id, CType t) {
    e.logical = id;
    if (t != CType::Struct) {
      r.skip(t);
      return;
    }
    fields(r, [&](int16_t pid, CType pt) {
      if (id == 5 && pid == 1) e.scale = r.read_i32(pt);
      else if (id == 5 && pid == 2) e.precision = r.read_i32(pt);
      else if ((id == 7 || id == 8) && pid == 1) e.utc = r.read_bool(pt);
      else if ((id == 7 || id == 8) && pid == 2 && pt == CType::Struct) {
        fields(r, [&](int16_t uid, CType ut) {
          e.time_unit = uid;
          r.skip(ut);
        });
      } else if (id == 10 && pid == 1) e.int_bits = r.read_i8(pt);
      else if (id == 10 && pid == 2) e.int_signed = r.read_bool(pt);
      else r.skip(pt);
    });
  });
}

SchemaElement read_schema_element(CompactReader& r) {
  SchemaElement e;
  fields(r, [&](int16_t id, CType t) {
    switch (id) {
      case 1: e.physical = r.read_i32(t); break;
      case 2: e.type_length = r.read_i32(t); break;
      case 3: e.repetition = r.read_i32(t); break;
      case 4: e.name = r.read_binary(t); break;
      case 5: e.num_children = r.read_i32(t); break;
      case 6: e.converted = r.read_i32(t); break;
      case 7: e.scale = r.read_i32(t); break;
      case 8: e.precision = r.read_i32(t); break;
      case 10:
        if (t == CType::Struct) read_logical(r, e);
        else r.skip(t);
        break;
      default: r.skip(t);
    }
  });
  return e;
}

void read_column_meta(CompactReader& r, ColumnChunkMeta& c) {
  fields(r, [&](int16_t id, CType t) {
    switch (id) {
      case 1: c.physical = Physical(r.read_i32(t)); break;
      case 2: elements(r, t, [&](CType e) { c.encodings.push_back(r.read_i32(e)); }); break;
      case 3: elements(r, t, [&](CType e) { c.path.push_back(r.read_binary(e)); }); break;
      case 4: c.codec = Codec(r.read_i32(t)); break;
      case 5: c.num_values = r.read_i64(t); break;
      case 6: c.total_uncompressed_size = r.read_i64(t); break;
      case 7: c.total_compressed_size = r.read_i64(t); break;
      case 9: c.data_page_offset = r.read_i64(t); break;
      case 11: c.dictionary_page_offset = r.read_i64(t); break;
      case 12:
        if (t == CType::Struct) read_statistics(r, c.stats);
        else r.skip(t);
        break;
      default: r.skip(t);
    }
  });
}

RowGroupMeta read_row_group(CompactReader& r) {
  RowGroupMeta g;
  fields(r, [&](int16_t id, CType t) {
    switch (id) {
      case 1:
        elements(r, t, [&](CType e) {
          if (e != CType::Struct) throw thrift::DecodeError("a column chunk is not a struct");
          ColumnChunkMeta c;
          c.stats.has_null_count = false;
          bool has_meta = false;
          fields(r, [&](int16_t cid, CType ct) {
            if (cid == 1) throw thrift::DecodeError("column chunks in other files are not supported");
            if (cid == 3 && ct == CType::Struct) {
              read_column_meta(r, c);
              has_meta = true;
            } else {
              r.skip(ct);
            }
          });
          if (!has_meta) throw thrift::DecodeError("a column chunk has no metadata");
          g.columns.push_back(std::move(c));
        });
        break;
      case 2: g.total_byte_size = r.read_i64(t); break;
      case 3: g.num_rows = r.read_i64(t); break;
      case 5: g.file_offset = r.read_i64(t); break;
      case 6: g.total_compressed_size = r.read_i64(t); break;
      default: r.skip(t);
    }
  });
  return g;
}

}  // namespace

FileMeta parse_file_meta(const uint8_t* data, size_t size) {
  FileMeta m;
  try {
    CompactReader r(data, size);
    int16_t id;
    CType t;
    while (r.next_field(id, t)) {
      switch (id) {
        case 2:
          elements(r, t, [&](CType e) {
            if (e != CType::Struct) throw thrift::DecodeError("a schema element is not a struct");
            m.schema.push_back(read_schema_element(r));
          });
          break;
        case 3: m.num_rows = r.read_i64(t); break;
        case 4:
          elements(r, t, [&](CType e) {
            if (e != CType::Struct) throw thrift::DecodeError("a row group is not a struct");
            m.row_groups.push_back(read_row_group(r));
          });
          break;
        case 5:
          elements(r, t, [&](CType e) {
            if (e != CType::Struct) throw thrift::DecodeError("a key/value is not a struct");
            std::string k, v;
            fields(r, [&](int16_t kid, CType kt) {
              if (kid == 1) k = r.read_binary(kt);
              else if (kid == 2) v = r.read_binary(kt);
              else r.skip(kt);
            });
            m.key_values.emplace_back(std::move(k), std::move(v));
          });
          break;
        case 6: m.created_by = r.read_binary(t); break;
        default: r.skip(t);
      }
    }
  } catch (const thrift::DecodeError& e) {
    GPUDF_FAIL(Parquet, std::string("corrupt footer metadata: ") + e.what());
  }
  GPUDF_EXPECTS(!m.schema.empty(), Parquet, "corrupt footer metadata: no schema");
  GPUDF_EXPECTS(m.num_rows >= 0, Parquet, "corrupt footer metadata: negative row count");
  return m;
}

PageHeader parse_page_header(const uint8_t* data, size_t size) {
  PageHeader h;
  bool has_type = false, has_sizes = false;
  try {
    CompactReader r(data, size);
    int16_t id;
    CType t;
    while (r.next_field(id, t)) {
      switch (id) {
        case 1: h.type = PageType(r.read_i32(t)); has_type = true; break;
        case 2: h.uncompressed_size = r.read_i32(t); break;
        case 3: h.compressed_size = r.read_i32(t); has_sizes = true; break;
        case 5:
          if (t != CType::Struct) { r.skip(t); break; }
          fields(r, [&](int16_t f, CType ft) {
            if (f == 1) h.num_values = r.read_i32(ft);
            else if (f == 2) h.encoding = r.read_i32(ft);
            else if (f == 3) h.def_encoding = r.read_i32(ft);
            else r.skip(ft);
          });
          break;
        case 7:
          if (t != CType::Struct) { r.skip(t); break; }
          fields(r, [&](int16_t f, CType ft) {
            if (f == 1) h.num_values = r.read_i32(ft);
            else if (f == 2) h.encoding = r.read_i32(ft);
            else r.skip(ft);
          });
          break;
        case 8:
          if (t != CType::Struct) { r.skip(t); break; }
          fields(r, [&](int16_t f, CType ft) {
            switch (f) {
              case 1: h.num_values = r.read_i32(ft); break;
              case 2: h.num_nulls = r.read_i32(ft); break;
              case 3: h.num_rows = r.read_i32(ft); break;
              case 4: h.encoding = r.read_i32(ft); break;
              case 5: h.def_bytes = r.read_i32(ft); break;
              case 6: h.rep_bytes = r.read_i32(ft); break;
              case 7: h.is_compressed = r.read_bool(ft); break;
              default: r.skip(ft);
            }
          });
          break;
        default: r.skip(t);
      }
    }
    h.header_size = r.position();
  } catch (const thrift::DecodeError& e) {
    GPUDF_FAIL(Parquet, std::string("corrupt page header: ") + e.what());
  }
  GPUDF_EXPECTS(has_type && has_sizes, Parquet, "corrupt page header: no type or size");
  GPUDF_EXPECTS(h.uncompressed_size >= 0 && h.compressed_size >= 0 && h.num_values >= 0 && h.num_nulls >= 0 &&
                    h.num_rows >= 0 && h.def_bytes >= 0 && h.rep_bytes >= 0,
                Parquet, "corrupt page header: a negative size or count");
  return h;
}

}  // namespace gpudf::parquet
