#!/usr/bin/env python3
"""Where each StrataError code is constructed, and which messages are written twice.

Issue 24's "no contract rule's check or message is written twice", as a command that can be run
again (`make rule-sites`). For every `StrataError(<code>, <message>, ...)` in Sources/ and Backends/
(PostgreSQL included; Tests/, Examples/ and Conformance/ are not the library), it finds the call
(parentheses balanced, string literals and their interpolations skipped), reads the code (`.name`,
or `(computed)` when the code is an expression) and the message (its string literal with every
interpolation blanked to `…`). It prints:

1. per code: the construction sites in Sources/, in Backends/ (PostgreSQL's share apart) and the total;
2. every message written at two or more sites (same code, same text once the interpolations are
   blanked), with the sites: a rule's message written twice shows here;
3. with --sites, every site.

A repeated message listed in allowed-repeats.txt (beside this script: the message, a tab, why it
is not one rule written twice) is reported apart; any other repeated message makes the exit status 1.
"""
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCOPES = ["Sources", "Backends"]


def swift_files():
    for scope in SCOPES:
        for folder, _, names in os.walk(os.path.join(ROOT, scope)):
            for name in sorted(names):
                if name.endswith(".swift"):
                    yield os.path.join(folder, name)


def skip_string(text, i):
    """i is at the opening quote(s) of a string literal; returns the index after it and its
    content with interpolations blanked to '…'."""
    raw = 0
    while text[i] == "#":
        raw += 1
        i += 1
    multi = text.startswith('"""', i)
    quote = '"""' if multi else '"'
    i += len(quote)
    close = quote + "#" * raw
    escape = "\\" + "#" * raw
    out = []
    while i < len(text):
        if text.startswith(close, i):
            return i + len(close), "".join(out)
        if text.startswith(escape, i):
            j = i + len(escape)
            if j < len(text) and text[j] == "(":
                i = skip_parens(text, j)  # an interpolation
                out.append("…")
                continue
            out.append(text[i:j + 1])
            i = j + 1
            continue
        out.append(text[i])
        i += 1
    return i, "".join(out)


def skip_parens(text, i):
    """i is at '('; returns the index after its matching ')'."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
            i, _ = skip_string(text, i)
            continue
        if c == "/" and text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                return len(text)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def arguments(text, start, end):
    """The top-level arguments of the call whose parentheses span text[start:end]."""
    args, depth, i, begin = [], 0, start + 1, start + 1
    while i < end - 1:
        c = text[i]
        if c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
            i, _ = skip_string(text, i)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            args.append((begin, i))
            begin = i + 1
        i += 1
    args.append((begin, end - 1))
    return args


CALL = re.compile(r"(?<![\w.])StrataError\(")


def sites():
    for path in swift_files():
        text = open(path, encoding="utf-8").read()
        for m in CALL.finditer(text):
            start = m.end() - 1
            end = skip_parens(text, start)
            args = arguments(text, start, end)
            first = text[args[0][0]:args[0][1]].strip()
            if first.startswith("code:"):
                first = first[5:].strip()
            code = first[1:] if re.fullmatch(r"\.[A-Za-z]\w*", first) else "(computed)"
            message = None
            if len(args) > 1:
                second = text[args[1][0]:args[1][1]].strip()
                if second.startswith('"') or second.startswith('#"'):
                    j, message = skip_string(second, 0)
                    if second[j:].strip():
                        message += " …"  # concatenated or followed by more
            line = text.count("\n", 0, m.start()) + 1
            yield os.path.relpath(path, ROOT), line, code, message


def main():
    show_sites = "--sites" in sys.argv
    allowed = {}
    allowed_file = os.path.join(os.path.dirname(os.path.abspath(__file__)), "allowed-repeats.txt")
    if os.path.exists(allowed_file):
        for raw in open(allowed_file, encoding="utf-8"):
            if raw.strip() and not raw.startswith("#"):
                message, _, why = raw.rstrip("\n").partition("\t")
                allowed[message] = why
    found = list(sites())
    counts = defaultdict(lambda: [0, 0, 0])
    messages = defaultdict(list)
    for path, line, code, message in found:
        scope = 0 if path.startswith("Sources/") else 1
        counts[code][scope] += 1
        if path.startswith("Backends/Postgres/"):
            counts[code][2] += 1
        # A message that is all interpolation says nothing of its own.
        if message is not None and message.replace("…", "").strip(" .:"):
            messages[(code, message)].append(f"{path}:{line}")

    print(f"StrataError construction sites in {' and '.join(s + '/' for s in SCOPES)} ({len(found)} in all)\n")
    print("| code | Sources/ | Backends/ (PostgreSQL) | total |")
    print("|---|---:|---:|---:|")
    for code in sorted(counts, key=lambda c: (-sum(counts[c][:2]), c)):
        s, b, pg = counts[code]
        print(f"| `{code}` | {s} | {b} ({pg}) | {s + b} |")

    repeats = {key: where for key, where in messages.items() if len(where) > 1}
    unexplained = {key: where for key, where in repeats.items() if key[1] not in allowed}
    print(f"\nMessages written at two or more sites: {len(repeats)} ({len(repeats) - len(unexplained)} explained in allowed-repeats.txt)")
    for (code, message), where in sorted(repeats.items()):
        why = allowed.get(message)
        print(f"- {code}: \"{message}\" — {len(where)} sites{'' if why is None else ' (allowed: ' + why + ')'}")
        for site in where:
            print(f"    {site}")
    if show_sites:
        print("\nEvery site:")
        for path, line, code, message in found:
            print(f"{path}:{line}\t{code}\t{message if message is not None else '(no literal message)'}")
    if unexplained:
        print(f"\n{len(unexplained)} message(s) written twice and not explained: give the rule one home, or say in allowed-repeats.txt why it is not one rule.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
