# SQLAlchemy 2.0 (ORM and Core, over psycopg 3) against a real meridiand, as an application
# would use it: declarative models with a foreign key and relationships, create_all (its
# pg_catalog probes: has_table with schema-qualified column names, pg_table_is_visible),
# 20,000 parents and 40,000 children added through the unit of work (insertmanyvalues batches
# with RETURNING of generated keys and server defaults), the loader strategies (select-in,
# joined, lazy), aggregates with joins, GROUP BY / HAVING, correlated EXISTS, IN with expanding
# parameters, pagination, ORM-enabled UPDATE/DELETE, cascades, SAVEPOINT (begin_nested), a
# unique violation surfacing as IntegrityError with SQLSTATE 23505 and the session usable
# after rollback, the Inspector calls that work (table, view, sequence, schema names,
# foreign keys), and a JSONB column (its comparators: jsonb subscripts, ->>, @>, ?, #>,
# jsonb_agg, || in an upsert). Every expected value is computed here in Python from the rows the test
# created. The Inspector reflects columns, keys, indexes and unique constraints, a Table
# autoloads, and Alembic's autogenerate comparison finds no difference from the models. With
# $MERIDIAN_TEST_CONNINFO set the same test runs against that server instead (how it was
# checked against PostgreSQL 15).
import datetime
import decimal
import os
import sys
import unittest

import psycopg
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import (BigInteger, Boolean, DateTime, ForeignKey, MetaData, Numeric, String,
                        Table, Text, create_engine, delete, exists, func, inspect, select, text,
                        update)
from sqlalchemy.dialects.postgresql import JSONB, insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import (DeclarativeBase, Mapped, Session, joinedload, mapped_column,
                            relationship, selectinload)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meridian_daemon import MeridianDaemon  # noqa: E402

USERS = 20000
D = decimal.Decimal


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "sa_users"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(50), unique=True)
    fullname: Mapped[str | None] = mapped_column(Text)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created: Mapped[datetime.datetime] = mapped_column(DateTime, server_default=func.now())
    addresses: Mapped[list["Address"]] = relationship(back_populates="user",
                                                      cascade="all, delete-orphan")


class Address(Base):
    __tablename__ = "sa_addresses"
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    email: Mapped[str] = mapped_column(String(100), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("sa_users.id"))
    balance: Mapped[D] = mapped_column(Numeric(10, 2), default=0)
    user: Mapped[User] = relationship(back_populates="addresses")


class Setting(Base):
    __tablename__ = "sa_settings"
    id: Mapped[int] = mapped_column(primary_key=True)
    data = mapped_column(JSONB)


def balance_of(i, k):
    return D(i % 97) + D(k) / 4


class SqlAlchemyTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        external = os.environ.get("MERIDIAN_TEST_CONNINFO")
        cls.daemon = None if external else MeridianDaemon().start()
        conninfo = external or cls.daemon.conninfo()
        cls.engine = create_engine("postgresql+psycopg://",
                                   creator=lambda: psycopg.connect(conninfo))
        with cls.engine.begin() as conn:
            conn.execute(text("DROP VIEW IF EXISTS sa_rich"))
        Base.metadata.drop_all(cls.engine)
        Base.metadata.create_all(cls.engine)
        with Session(cls.engine) as s:
            for start in range(0, USERS, 5000):
                s.add_all(User(name=f"user{i}", fullname=f"User {i}", active=i % 3 != 0,
                               addresses=[Address(email=f"u{i}.{k}@example.org",
                                                  balance=balance_of(i, k)) for k in range(2)])
                          for i in range(start, min(start + 5000, USERS)))
                s.commit()

    @classmethod
    def tearDownClass(cls):
        cls.engine.dispose()
        if cls.daemon is not None:
            code = cls.daemon.stop()
            log = cls.daemon.log()
            cls.daemon.__exit__(None, None, None)
            if code != 0:
                raise AssertionError(f"meridiand exited with {code}:\n{log}")

    def test_generated_keys_defaults_and_counts(self):
        with Session(self.engine) as s:
            self.assertEqual(s.scalar(select(func.count()).select_from(User)), USERS)
            self.assertEqual(s.scalar(select(func.count()).select_from(Address)), 2 * USERS)
            ids = s.scalars(select(User.id).order_by(User.id)).all()
            self.assertEqual(len(set(ids)), USERS)
            u = s.scalars(select(User).where(User.name == "user1234")).one()
            self.assertIsInstance(u.created, datetime.datetime)  # server default, RETURNING
            self.assertEqual(u.fullname, "User 1234")
            self.assertFalse(s.scalar(select(User.active).where(User.name == "user3")))

    def test_loader_strategies(self):
        with Session(self.engine) as s:
            u = s.scalars(select(User).options(selectinload(User.addresses))
                          .where(User.name == "user77")).one()
            self.assertEqual(sorted(a.email for a in u.addresses),
                             ["u77.0@example.org", "u77.1@example.org"])
            page = s.scalars(select(User).options(joinedload(User.addresses))
                             .where(User.name.like("user12%")).order_by(User.name)
                             .offset(2).limit(3)).unique().all()
            want = sorted(f"user{i}" for i in range(USERS) if str(i).startswith("12"))[2:5]
            self.assertEqual([x.name for x in page], want)
            self.assertTrue(all(len(x.addresses) == 2 for x in page))
            a = s.scalars(select(Address).where(Address.email == "u5.1@example.org")).one()
            self.assertEqual(a.user.name, "user5")  # lazy load

    def test_aggregates_joins_subqueries(self):
        with Session(self.engine) as s:
            total = s.scalar(select(func.sum(Address.balance)))
            self.assertEqual(total, sum(balance_of(i, k) for i in range(USERS) for k in range(2)))
            top = s.execute(select(User.name, func.count(Address.id), func.sum(Address.balance))
                            .join(User.addresses).group_by(User.name)
                            .order_by(func.sum(Address.balance).desc(), User.name).limit(2)).all()
            best = sorted(range(USERS), key=lambda i: (-(balance_of(i, 0) + balance_of(i, 1)),
                                                       f"user{i}"))[:2]
            self.assertEqual(top, [(f"user{i}", 2, balance_of(i, 0) + balance_of(i, 1))
                                   for i in best])
            rich = s.scalar(select(func.count()).select_from(
                select(Address.user_id).group_by(Address.user_id)
                .having(func.sum(Address.balance) > 190).subquery()))
            self.assertEqual(rich, sum(1 for i in range(USERS)
                                       if balance_of(i, 0) + balance_of(i, 1) > 190))
            wanted = [3, 10, 19999, 123456]
            got = s.scalars(select(User.name).where(User.id.in_(
                select(User.id).where(User.name.in_([f"user{i}" for i in wanted]))))).all()
            self.assertEqual(sorted(got), sorted(f"user{i}" for i in wanted if i < USERS))
            no_rich = s.scalar(select(func.count()).select_from(User).where(~exists().where(
                Address.user_id == User.id, Address.balance > 96)))
            self.assertEqual(no_rich, sum(1 for i in range(USERS)
                                          if not any(balance_of(i, k) > 96 for k in range(2))))

    def test_updates_deletes_cascades_savepoints(self):
        with Session(self.engine) as s:
            u = User(name="temp", addresses=[Address(email="t@x.org", balance=D("1.50"))])
            s.add(u)
            s.commit()
            u.fullname = "changed"
            s.commit()
            self.assertEqual(s.scalar(select(User.fullname).where(User.id == u.id)), "changed")
            s.execute(update(Address).where(Address.user_id == u.id)
                      .values(balance=Address.balance + 2))
            s.commit()
            self.assertEqual(s.scalar(select(Address.balance).where(Address.user_id == u.id)),
                             D("3.50"))
            with s.begin_nested():  # SAVEPOINT ... RELEASE
                u.fullname = "kept"
            nested = s.begin_nested()
            u.fullname = "undone"
            s.flush()
            nested.rollback()  # ROLLBACK TO SAVEPOINT
            s.commit()
            self.assertEqual(s.scalar(select(User.fullname).where(User.id == u.id)), "kept")
            s.delete(u)  # cascades to the address
            s.commit()
            self.assertEqual(s.scalar(select(func.count()).select_from(Address)
                                      .where(Address.email == "t@x.org")), 0)
            s.execute(delete(Address).where(Address.email == "nobody@x.org"))
            s.commit()

    def test_unique_violation_then_session_usable(self):
        with Session(self.engine) as s:
            s.add(User(name="user8"))
            with self.assertRaises(IntegrityError) as cm:
                s.commit()
            self.assertEqual(cm.exception.orig.sqlstate, "23505")
            s.rollback()
            self.assertEqual(s.scalar(select(func.count()).select_from(User)
                                      .where(User.name == "user8")), 1)
            s.add(Address(email="orphan@x.org", user_id=10**9))
            with self.assertRaises(IntegrityError) as cm:
                s.commit()
            self.assertEqual(cm.exception.orig.sqlstate, "23503")
            s.rollback()

    def test_jsonb_column(self):
        with Session(self.engine) as s:
            s.add_all([Setting(id=1, data={"a": 1, "tags": ["x"], "n": {"k": "v"}}),
                       Setting(id=2, data={"a": 2})])
            s.commit()
            ids = lambda q: s.scalars(q.order_by(Setting.id)).all()  # noqa: E731
            self.assertEqual(ids(select(Setting.id).where(Setting.data["a"].as_integer() == 2)),
                             [2])
            self.assertEqual(ids(select(Setting.id).where(Setting.data.contains({"tags": ["x"]}))),
                             [1])
            self.assertEqual(ids(select(Setting.id).where(Setting.data.has_key("n"))), [1])
            self.assertEqual(ids(select(Setting.data[("n", "k")].astext)), ["v", None])
            self.assertEqual(ids(select(Setting.data["tags"][0].astext)), ["x", None])
            self.assertEqual(s.scalar(select(func.jsonb_agg(Setting.data["a"]))), [1, 2])
            s.execute(insert(Setting).values(id=2, data={"b": 3}).on_conflict_do_update(
                index_elements=[Setting.id], set_={"data": Setting.data.concat({"b": 3})}))
            s.commit()
            self.assertEqual(s.get(Setting, 2).data, {"a": 2, "b": 3})
            self.assertEqual(ids(select(Setting.id).where(Setting.data == {"b": 3, "a": 2})), [2])

    def test_inspector(self):
        with self.engine.begin() as conn:
            conn.execute(text("CREATE VIEW sa_rich AS SELECT user_id FROM sa_addresses "
                              "WHERE balance > 100"))
        insp = inspect(self.engine)
        self.assertTrue({"sa_users", "sa_addresses"} <= set(insp.get_table_names()))
        self.assertTrue(insp.has_table("sa_users"))
        self.assertFalse(insp.has_table("sa_nothing"))
        self.assertIn("sa_rich", insp.get_view_names())
        self.assertNotIn("tables", insp.get_view_names())  # information_schema is not visible
        self.assertIn("public", insp.get_schema_names())
        self.assertTrue({"sa_users_id_seq", "sa_addresses_id_seq"} <= set(insp.get_sequence_names()))
        fks = insp.get_foreign_keys("sa_addresses")
        self.assertEqual([(f["constrained_columns"], f["referred_table"], f["referred_columns"])
                          for f in fks], [(["user_id"], "sa_users", ["id"])])
        # Column, key, index and unique reflection (pg_attribute, pg_enum, pg_collation,
        # pg_index's indkey/indoption unnested, pg_opclass).
        cols = {c["name"]: c for c in insp.get_columns("sa_addresses")}
        self.assertEqual(list(cols), ["id", "email", "user_id", "balance"])
        self.assertIsInstance(cols["id"]["type"], BigInteger)
        self.assertEqual((cols["email"]["type"].length, cols["email"]["nullable"]), (100, False))
        self.assertEqual((cols["balance"]["type"].precision, cols["balance"]["type"].scale),
                         (10, 2))
        self.assertIn("nextval", cols["id"]["default"])
        self.assertEqual(insp.get_pk_constraint("sa_addresses")["constrained_columns"], ["id"])
        self.assertEqual([(i["name"], i["column_names"], i["unique"])
                          for i in insp.get_indexes("sa_addresses")],
                         [("ix_sa_addresses_email", ["email"], False)])
        self.assertEqual([u["column_names"] for u in insp.get_unique_constraints("sa_users")],
                         [["name"]])
        # A table reflected whole serves queries.
        reflected = Table("sa_users", MetaData(), autoload_with=self.engine)
        with self.engine.connect() as conn:
            self.assertEqual(conn.scalar(select(func.count()).select_from(reflected)
                                         .where(reflected.c.name == "user7")), 1)
        # Alembic's autogenerate finds the database equal to the models it was created from.
        with self.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        self.assertEqual(diff, [])


if __name__ == "__main__":
    unittest.main()
