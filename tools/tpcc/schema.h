// The nine tables of TPC-C clause 1.3 with their primary keys, and the two secondary indexes
// (customer by name, orders by customer), in SQL that Meridian and PostgreSQL 15 both run.
#pragma once

#include <string>
#include <vector>

namespace tpcc {

// DROP TABLE IF EXISTS of the nine tables.
std::string DropTablesSql();
// CREATE TABLE statements, one per table, with primary keys.
std::vector<std::string> CreateTablesSql();
// CREATE INDEX statements run after the load (a bulk build is cheaper than row-by-row upkeep).
std::vector<std::string> CreateIndexesSql();
// The table names, in load order.
const std::vector<std::string>& TableNames();

}  // namespace tpcc
