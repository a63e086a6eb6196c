// What flows between the executor's operators: named columns whose rows may not be moved yet.
//
// A column of a Relation is a base column seen through an optional row map (int64 indices into
// the base, -1 = a null row). Filters, sorts, slices and joins only make or compose row maps;
// the columns that pass through them are gathered once, when an operator needs their values
// (an expression, a key, the output) — late materialisation. Columns that went through the same
// operators share one RowMap, and a column's materialised values are cached in its cell, so a
// column read by several operators is gathered once.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/column.hpp"

namespace gpudf::exec {

/// Row indices into base columns of `base_rows` rows (int64, no nulls); -1 rows are nulls when
/// `has_missing`. `ascending`: strictly ascending and no -1 (a filter's selection), so the rows
/// keep the base's order and operators may work on the base rows directly (see dense()).
struct RowMap {
  ColumnPtr rows;
  bool has_missing = false;
  bool ascending = false;
  int64_t base_rows = 0;
  int64_t size() const { return rows->size(); }
  /// An ascending selection of most of the base: evaluating over all base rows (and keeping
  /// this map) costs less than gathering the inputs first.
  bool dense() const { return ascending && size() * 2 >= base_rows; }
};

/// What a take's rows are: an ascending selection, another order, or with -1 (null) rows.
enum class TakeRows { Ascending, Permuted, WithMissing };
using RowMapPtr = std::shared_ptr<const RowMap>;

/// A base column and the rows of it this column holds (no map: all of them, in order).
class Cell {
 public:
  Cell(ColumnPtr base, RowMapPtr map) : base_(std::move(base)), map_(std::move(map)) {}
  const ColumnPtr& base() const { return base_; }
  const RowMapPtr& map() const { return map_; }
  int64_t size() const { return map_ ? map_->size() : base_->size(); }
  TypeId type() const { return base_->type(); }
  /// The values (gathered once, then cached).
  ColumnPtr values() const;

 private:
  ColumnPtr base_;
  RowMapPtr map_;
  mutable std::mutex mutex_;
  mutable ColumnPtr values_;
};
using CellPtr = std::shared_ptr<const Cell>;

CellPtr make_cell(ColumnPtr base);

class Relation {
 public:
  Relation() = default;
  Relation(Device& device, int64_t height) : device_(&device), height_(height) {}

  int64_t height() const { return height_; }
  Device& device() const { return *device_; }
  size_t width() const { return cells_.size(); }
  const std::vector<std::string>& names() const { return names_; }
  const std::vector<CellPtr>& cells() const { return cells_; }
  const CellPtr& cell(size_t i) const { return cells_.at(i); }

  /// Index of `name`; ERR_COLUMN_NOT_FOUND listing the columns when absent.
  size_t index_of(const std::string& name) const;
  const CellPtr& cell(const std::string& name) const { return cells_[index_of(name)]; }

  /// Appends a column; its size must equal the height.
  void add(std::string name, CellPtr cell);
  void add(std::string name, ColumnPtr column) { add(std::move(name), make_cell(std::move(column))); }

  /// The rows `rows` (int64; -1 = a null row for WithMissing) of every column: maps are
  /// composed, no column is moved. Columns sharing a map share the composed one.
  Relation take(const ColumnPtr& rows, TakeRows kind) const;

  /// Rows [offset, offset + length) (clamped to the height): O(1) per column.
  Relation slice(int64_t offset, int64_t length) const;

  /// Every column's values.
  std::vector<ColumnPtr> materialise() const;

 private:
  Device* device_ = nullptr;
  int64_t height_ = 0;
  std::vector<std::string> names_;
  std::vector<CellPtr> cells_;
};

}  // namespace gpudf::exec
