// File seam: POSIX file basics and error reporting, and the fault-injecting FileSystem
// (failed writes, dropping unsynced data).
#include "storage/file.h"

#include <gtest/gtest.h>

#include "storage/fault_injection_file_system.h"
#include "temp_dir.h"

namespace meridian::storage {
namespace {

using testutil::TempDir;

std::string ReadAll(File* f) {
  auto size = f->Size();
  EXPECT_TRUE(size.ok());
  std::string buf(*size, '\0');
  size_t got = 0;
  EXPECT_TRUE(f->ReadAt(0, buf.size(), buf.data(), &got).ok());
  buf.resize(got);
  return buf;
}

TEST(FileTest, PosixReadWriteSizeTruncate) {
  TempDir dir;
  FileSystem* fs = FileSystem::Default();
  auto f = fs->Open(dir.File("a"), /*create=*/true);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  File* file = f->get();
  ASSERT_TRUE(file->WriteAt(0, "hello").ok());
  ASSERT_TRUE(file->WriteAt(10, "world").ok());
  EXPECT_EQ(file->Size().value(), 15u);
  std::string all = ReadAll(file);
  EXPECT_EQ(all, std::string("hello\0\0\0\0\0world", 15));
  char buf[8];
  size_t got = 0;
  ASSERT_TRUE(file->ReadAt(12, sizeof(buf), buf, &got).ok());
  EXPECT_EQ(got, 3u);  // short read at end of file
  ASSERT_TRUE(file->Sync().ok());
  ASSERT_TRUE(file->Truncate(5).ok());
  EXPECT_EQ(file->Size().value(), 5u);
  ASSERT_TRUE(file->Allocate(0, 8192).ok());
  EXPECT_EQ(file->Size().value(), 8192u);
  EXPECT_TRUE(fs->Exists(dir.File("a")).value());
  ASSERT_TRUE(fs->Rename(dir.File("a"), dir.File("b")).ok());
  ASSERT_TRUE(fs->SyncDir(dir.path()).ok());
  EXPECT_FALSE(fs->Exists(dir.File("a")).value());
  ASSERT_TRUE(fs->Remove(dir.File("b")).ok());
  EXPECT_FALSE(fs->Exists(dir.File("b")).value());
}

TEST(FileTest, ErrorsNameThePathAndErrno) {
  TempDir dir;
  auto f = FileSystem::Default()->Open(dir.File("missing"), /*create=*/false);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().sqlstate(), "58030");
  EXPECT_NE(f.status().message().find(dir.File("missing")), std::string::npos);
  EXPECT_NE(f.status().message().find("No such file"), std::string::npos);
  Status st = FileSystem::Default()->Remove(dir.File("missing"));
  EXPECT_EQ(st.sqlstate(), "58030");
}

TEST(FaultInjectionTest, FailWritesAndDropUnsynced) {
  TempDir dir;
  FaultInjectionFileSystem fs(FileSystem::Default());
  auto f = fs.Open(dir.File("x"), /*create=*/true);
  ASSERT_TRUE(f.ok());
  File* file = f->get();
  ASSERT_TRUE(file->WriteAt(0, "synced-data").ok());
  ASSERT_TRUE(file->Sync().ok());
  ASSERT_TRUE(file->WriteAt(0, "XXXXXX").ok());
  ASSERT_TRUE(file->WriteAt(11, "-tail").ok());
  EXPECT_EQ(ReadAll(file), "XXXXXX-data-tail");

  fs.SetFailWrites(true);
  Status st = file->WriteAt(0, "nope");
  EXPECT_EQ(st.sqlstate(), "58030");
  fs.SetFailWrites(false);
  fs.SetFailSyncs(true);
  EXPECT_EQ(file->Sync().sqlstate(), "58030");
  fs.SetFailSyncs(false);

  ASSERT_TRUE(fs.DropUnsyncedData().ok());
  EXPECT_EQ(ReadAll(file), "synced-data");
}

}  // namespace
}  // namespace meridian::storage
