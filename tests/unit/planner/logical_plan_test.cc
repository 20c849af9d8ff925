// BuildLogicalPlan's trees (and the rules of RewriteLogicalPlan) for a few statements,
// compared as LogicalPlanToString prints them; LowerLogicalPlan of one of them.
#include "planner/logical_plan.h"

#include <gtest/gtest.h>

#include <string>

#include "binder/binder.h"
#include "catalog_fixture.h"
#include "meridian/parser/parser.h"

namespace meridian::exec {
namespace {

class LogicalPlanTest : public catalog::CatalogFixture {
 protected:
  void SetUp() override {
    CatalogFixture::SetUp();
    // t(id PRIMARY KEY, a, b) and u(id PRIMARY KEY, t_id, c), all integers.
    for (const auto& [name, cols] :
         {std::pair<std::string, std::vector<std::string>>{"t", {"id", "a", "b"}},
          {"u", {"id", "t_id", "c"}}}) {
      catalog::TableSchema s;
      s.name = name;
      for (const std::string& c : cols) {
        s.columns.push_back(catalog::Column{c, Type::Integer(), c == "id", "", nullptr, false, {}});
      }
      s.primary_key = {0};
      ASSERT_TRUE(catalog_->CreateTable(std::move(s)).ok());
    }
  }

  LogicalPlan Build(const std::string& sql, bool rewrite) {
    auto parsed = parser::Parse(sql);
    EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
    catalog::LockSet locks;
    Binder binder(catalog_.get(), &locks);
    auto bound = binder.BindSelect(*parsed.value()[0].select);
    EXPECT_TRUE(bound.ok()) << bound.status().ToString();
    LogicalPlan plan = BuildLogicalPlan(std::move(bound).value());
    if (rewrite) RewriteLogicalPlan(&plan);
    return plan;
  }
  std::string Print(const std::string& sql, bool rewrite = false) {
    return LogicalPlanToString(*Build(sql, rewrite).root);
  }
};

TEST_F(LogicalPlanTest, PipelineAboveOneTable) {
  EXPECT_EQ(Print("SELECT a FROM t WHERE b > 1 AND a < 5 ORDER BY a DESC LIMIT 3 OFFSET 1"),
            "Limit 3 offset 1\n"
            "  Sort #0 DESC\n"
            "    Project t.a\n"
            "      Filter (t.b > 1), (t.a < 5)\n"
            "        Get t\n");
}

TEST_F(LogicalPlanTest, JoinsKeepTheirTypeAndCondition) {
  EXPECT_EQ(Print("SELECT t.a, x.c FROM t LEFT JOIN u x ON x.t_id = t.id, u "
                  "WHERE u.c = t.b"),
            "Project t.a, x.c\n"
            "  Filter (u.c = t.b)\n"
            "    Cross Join\n"
            "      Left Join on (x.t_id = t.id)\n"
            "        Get t\n"
            "        Get u x\n"
            "      Get u\n");
}

TEST_F(LogicalPlanTest, AggregateHavingDistinct) {
  const std::string sql =
      "SELECT DISTINCT id, a, count(*) FROM t GROUP BY id, a HAVING count(*) > 1";
  EXPECT_EQ(Print(sql),
            "Distinct\n"
            "  Project t.id, t.a, #2\n"
            "    Filter (#2 > 1)\n"
            "      Aggregate keys [t.id, t.a] [count(*)]\n"
            "        Get t\n");
  // id is t's primary key: the GROUP BY rule marks a dependent (carried beside id, not hashed).
  EXPECT_EQ(Print(sql, /*rewrite=*/true),
            "Distinct\n"
            "  Project t.id, t.a, #2\n"
            "    Filter (#2 > 1)\n"
            "      Aggregate keys [t.id, t.a (dependent)] [count(*)]\n"
            "        Get t\n");
  // Not when the key is u's column: u.id is not among the keys.
  EXPECT_EQ(Print("SELECT t.id, u.c FROM t, u GROUP BY t.id, u.c", /*rewrite=*/true),
            "Project t.id, u.c\n"
            "  Aggregate keys [t.id, u.c] []\n"
            "    Cross Join\n"
            "      Get t\n"
            "      Get u\n");
}

TEST_F(LogicalPlanTest, SetOperationAndValues) {
  EXPECT_EQ(Print("SELECT a FROM t UNION SELECT 1 ORDER BY 1"),
            "Sort #0\n"
            "  Union\n"
            "    Project t.a\n"
            "      Get t\n"
            "    Project 1\n"
            "      Values (one empty row)\n");
}

TEST_F(LogicalPlanTest, WindowAndDerivedTable) {
  EXPECT_EQ(Print("SELECT s.a, row_number() OVER (ORDER BY s.a) FROM (SELECT a FROM t) s, u "
                  "WHERE s.a = u.c"),
            "Project s.a, row_number\n"
            "  Window [row_number() OVER (?)]\n"
            "    Filter (s.a = u.c)\n"
            "      Cross Join\n"
            "        Get subquery s\n"
            "        Get u\n");
}

TEST_F(LogicalPlanTest, MinMaxRuleAddsNotNullAndMarksTheAggregate) {
  EXPECT_EQ(Print("SELECT max(a) FROM t WHERE b = 2"),
            "Project #0\n"
            "  Aggregate [max(t.a)]\n"
            "    Filter (t.b = 2)\n"
            "      Get t\n");
  EXPECT_EQ(Print("SELECT max(a) FROM t WHERE b = 2", /*rewrite=*/true),
            "Project #0\n"
            "  Aggregate [max(t.a)] (min/max from index order)\n"
            "    Filter (t.b = 2), (t.a IS NOT NULL)\n"
            "      Get t\n");
  // No WHERE: the rule adds the Filter.
  EXPECT_EQ(Print("SELECT min(a) FROM t", /*rewrite=*/true),
            "Project #0\n"
            "  Aggregate [min(t.a)] (min/max from index order)\n"
            "    Filter (t.a IS NOT NULL)\n"
            "      Get t\n");
  // Not with a GROUP BY.
  EXPECT_EQ(Print("SELECT max(a) FROM t GROUP BY b", /*rewrite=*/true),
            "Project #1\n"
            "  Aggregate keys [t.b] [max(t.a)]\n"
            "    Get t\n");
}

TEST_F(LogicalPlanTest, CorrelatedWhereSubqueriesBecomeApplies) {
  // Each correlated [NOT] EXISTS / [NOT] IN conjunct is an Apply under the WHERE's other
  // conjuncts, the first conjunct's lowest; an uncorrelated one stays in the Filter.
  EXPECT_EQ(Print("SELECT a FROM t WHERE b > 1 AND EXISTS (SELECT 1 FROM u WHERE u.t_id = t.id) "
                  "AND a NOT IN (SELECT c FROM u WHERE u.id = t.b) "
                  "AND NOT EXISTS (SELECT 1 FROM u WHERE u.c = t.a) "
                  "AND b IN (SELECT t_id FROM u WHERE u.c = t.a) AND a IN (SELECT c FROM u)"),
            "Project t.a\n"
            "  Filter (t.b > 1), (t.a IN (SubPlan))\n"
            "    Apply Semi (t.b IN (SubPlan))\n"
            "      Apply Anti (NOT EXISTS(SubPlan))\n"
            "        Apply Anti (null-aware) (t.a NOT IN (SubPlan))\n"
            "          Apply Semi EXISTS(SubPlan)\n"
            "            Get t\n");
  // The decorrelation rule: equality correlations get the hashed semi/anti join.
  EXPECT_EQ(Print("SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.t_id = t.id) "
                  "AND a NOT IN (SELECT c FROM u WHERE u.id = t.b)",
                  /*rewrite=*/true),
            "Project t.a\n"
            "  Apply Anti (null-aware) (t.a NOT IN (SubPlan, hashed after 1 rows)) (hashed)\n"
            "    Apply Semi EXISTS(SubPlan, hashed after 1 rows) (hashed)\n"
            "      Get t\n");
  // Not when the correlation is not an equality, nor over an outer join.
  EXPECT_EQ(Print("SELECT a FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.c > t.a) "
                  "AND EXISTS (SELECT 1 FROM u LEFT JOIN t x ON x.id = u.c WHERE u.t_id = t.id)",
                  /*rewrite=*/true),
            "Project t.a\n"
            "  Apply Semi EXISTS(SubPlan)\n"
            "    Apply Anti (NOT EXISTS(SubPlan))\n"
            "      Get t\n");
  // A subquery in the select list or under OR is no Apply: the binder gave it its hashed form
  // (before the rules run; an Apply's comes from the rule, as the first tree above shows).
  EXPECT_EQ(Print("SELECT EXISTS (SELECT 1 FROM u WHERE u.t_id = t.id) FROM t "
                  "WHERE a = 1 OR EXISTS (SELECT 1 FROM u WHERE u.t_id = t.id)"),
            "Project EXISTS(SubPlan, hashed after 1 rows)\n"
            "  Filter ((t.a = 1) OR EXISTS(SubPlan, hashed after 1 rows))\n"
            "    Get t\n");
  // planagg's conjunct goes above the Applies.
  EXPECT_EQ(Print("SELECT max(a) FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.t_id = t.id)",
                  /*rewrite=*/true),
            "Project #0\n"
            "  Aggregate [max(t.a)] (min/max from index order)\n"
            "    Filter (t.a IS NOT NULL)\n"
            "      Apply Semi EXISTS(SubPlan, hashed after 1 rows) (hashed)\n"
            "        Get t\n");
}

TEST_F(LogicalPlanTest, AppliesGoBackToTheirPlaceInTheFilter) {
  LogicalPlan plan = Build(
      "SELECT a FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.c = t.a) AND b + a > id "
      "AND b IN (SELECT t_id FROM u WHERE u.c > t.a)",
      /*rewrite=*/true);
  auto lowered = LowerLogicalPlan(&plan, /*instrument=*/false);
  ASSERT_TRUE(lowered.ok()) << lowered.status().ToString();
  const PlanNode& top = *lowered.value().explain;
  EXPECT_EQ(top.label, "Seq Scan on t");
  ASSERT_EQ(top.details.size(), 1u);
  EXPECT_EQ(top.details[0],
            "Filter: (((t.b + t.a) > t.id) AND (NOT EXISTS(SubPlan, hashed after 1 rows)) AND "
            "(t.b IN (SubPlan)))");
}

TEST_F(LogicalPlanTest, LoweringReadsTheLogicalTree) {
  LogicalPlan plan = Build("SELECT max(a) FROM t", /*rewrite=*/true);
  auto lowered = LowerLogicalPlan(&plan, /*instrument=*/false);
  ASSERT_TRUE(lowered.ok()) << lowered.status().ToString();
  const PlanNode& top = *lowered.value().explain;
  EXPECT_EQ(top.label, "Aggregate");
  ASSERT_EQ(top.children.size(), 1u);
  // The rule's conjunct reaches the scan.
  EXPECT_EQ(top.children[0]->label, "Seq Scan on t");
  ASSERT_EQ(top.children[0]->details.size(), 1u);
  EXPECT_EQ(top.children[0]->details[0], "Filter: (t.a IS NOT NULL)");
}

}  // namespace
}  // namespace meridian::exec
