# The pyformat paramstyle (`%s` and `%(name)s`, `%%` for a literal percent sign), rewritten into
# the server's `$n` placeholders. Only the placeholders change: values travel separately, as
# typed parameters. As in psycopg, `%` is special anywhere in the text (also inside quotes) when
# parameters are given, and the text is sent untouched when they are not.
from collections.abc import Mapping, Sequence

from .errors import ProgrammingError


class Template:
    """A statement split at its placeholders. `parts` has one more element than `slots`;
    slot i (between parts[i] and parts[i+1]) is parameter number slots[i] (0-based) of
    `keys` (positions for %s, names for %(name)s)."""

    def __init__(self, parts, slots, keys, named):
        self.parts = parts
        self.slots = slots
        self.keys = keys
        self.named = named

    def render(self, offset=0):
        """The SQL with $n placeholders numbered from offset + 1."""
        out = [self.parts[0]]
        for slot, part in zip(self.slots, self.parts[1:]):
            out.append(f"${offset + slot + 1}")
            out.append(part)
        return "".join(out)

    def values(self, params):
        """The parameter values in $n order, checked against the placeholders."""
        if self.named:
            if not isinstance(params, Mapping):
                raise ProgrammingError("the statement uses %(name)s placeholders: pass a mapping")
            try:
                return [params[k] for k in self.keys]
            except KeyError as e:
                raise ProgrammingError(f"no value for the placeholder %({e.args[0]})s") from None
        if isinstance(params, (str, bytes)) or not isinstance(params, Sequence):
            if isinstance(params, Mapping) and not self.keys:
                return []
            raise ProgrammingError("the statement uses %s placeholders: pass a sequence")
        if len(params) != len(self.keys):
            raise ProgrammingError(f"the statement has {len(self.keys)} placeholders but "
                                   f"{len(params)} parameters were given")
        return list(params)


def parse(sql):
    """Splits `sql` at its pyformat placeholders. Raises ProgrammingError on a lone `%`, an
    unterminated `%(`, or a mix of `%s` and `%(name)s`."""
    parts, slots, keys = [], [], []
    names = {}
    buf = []
    kinds = set()
    i, n = 0, len(sql)
    while i < n:
        c = sql[i]
        if c != "%":
            j = sql.find("%", i)
            j = n if j < 0 else j
            buf.append(sql[i:j])
            i = j
            continue
        nxt = sql[i + 1] if i + 1 < n else ""
        if nxt == "%":
            buf.append("%")
            i += 2
        elif nxt == "s":
            kinds.add("positional")
            parts.append("".join(buf))
            buf = []
            slots.append(len(keys))
            keys.append(len(keys))
            i += 2
        elif nxt == "(":
            close = sql.find(")", i + 2)
            if close < 0 or close + 1 >= n or sql[close + 1] != "s":
                raise ProgrammingError(f"bad placeholder at character {i + 1}: use %(name)s")
            kinds.add("named")
            name = sql[i + 2:close]
            if name not in names:
                names[name] = len(keys)
                keys.append(name)
            parts.append("".join(buf))
            buf = []
            slots.append(names[name])
            i = close + 2
        else:
            raise ProgrammingError(f"bad placeholder at character {i + 1}: only %s, %(name)s "
                                   "and %% are allowed (write a literal % as %%)")
    parts.append("".join(buf))
    if len(kinds) > 1:
        raise ProgrammingError("the statement mixes %s and %(name)s placeholders")
    return Template(parts, slots, keys, named="named" in kinds)
