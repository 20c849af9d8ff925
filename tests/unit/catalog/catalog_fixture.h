// A catalog over a fresh temporary data directory and a 64-frame buffer pool, for the catalog's
// unit tests: Open() on SetUp (and again after Close, by Reopen), Close and removal on TearDown.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "catalog/catalog.h"
#include "storage/buffer_pool.h"

namespace meridian::catalog {

class CatalogFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl =
        (std::filesystem::temp_directory_path() / "meridian-catalog-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    pool_ = std::make_unique<storage::BufferPool>(64);
    Open();
  }
  void TearDown() override {
    if (catalog_ != nullptr) {
      ASSERT_TRUE(catalog_->Close().ok());
    }
    catalog_.reset();
    pool_.reset();
    std::filesystem::remove_all(dir_);
  }
  void Open() {
    auto c = Catalog::Open(dir_, pool_.get());
    ASSERT_TRUE(c.ok()) << c.status().ToString();
    catalog_ = std::move(c).value();
  }
  void Reopen() {
    ASSERT_TRUE(catalog_->Close().ok());
    catalog_.reset();
    Open();
  }

  std::string dir_;
  std::unique_ptr<storage::BufferPool> pool_;
  std::unique_ptr<Catalog> catalog_;
};

}  // namespace meridian::catalog
