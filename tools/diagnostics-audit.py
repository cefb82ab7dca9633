#!/usr/bin/env python3
"""Audits Crosslane's user-facing diagnostics: is each one exercised by a test?

Scans the sources for the places that emit a message a user can see:
  unsupported  DiagnosticInfoUnsupported(...) and the local helpers that
               wrap it (diagnose(), error(), diagnoseError() in
               lib/SubgroupReduce, lib/Xe, lib/Vortex)
  generic      DiagnosticInfoGeneric(...)
  remark       optimisation remarks: OptimizationRemark*(PASS, "Name", ...),
               XeBlockIO's missed(B, "Name", ...), and the recogniser's
               refusal reasons (refuse()/refusal() in lib/ArgRecognition);
               one diagnostic per pass and remark name
  param        a pass's bad-parameter error (make_error<StringError>)
  config       lowering-config errors (makeError, createStringError and the
               parser's error() in lib/LoweringConfig and crosslane-reduce)
  tool         tool errors: crosslane-run and crosslane-reduce fatal(),
               crosslane-vx-launch fail(), crosslane-vortex-cc die(),
               crosslane-hipcc's "error:" lines, the clang plugin's error
  executor     the IR executor's run errors (fail(), failAt(), and the
               `Err = ...` / `Why = ...` messages of lib/Executor)
  header       diagnose_if messages of include/crosslane/hip/crosslane.h
A message site's KEY is the longest fragment of its string literals (at
least 12 characters and two words, format placeholders removed) that no
other site's text contains; the text the emitting helper adds ("...: ",
" (at column ", " at <location>") is counted in. A remark's key is its
name (a pass's remarks of one name are one diagnostic; the recogniser's
refusal reasons are remark names). A site is covered when a FileCheck or
RUN line under test/ (not a -NOT line, not a comment), a test generator
(.py) or a unit test (unittests/) holds:
  - one of its distinctive fragments (whole literals, their clauses split
    at ": ", the text before a " (");
  - or all its literal pieces in order on one line (possibly without the
    first one or two: a test may match a message's start with {{.*}});
  - or, for a remark, `Name: X` (YAML), `(X)` (the recogniser's text), its
    CamelCase name as a word, or its text as above.
A fragment several sites share covers a site only when the message is the
same, or when the site's message begins with its caller's text (`What + "
is poison in lane "`); such a cover is printed as a warning.

Prints a table `file:line | kind | key | tests (count, first test)`, the
totals and the uncovered sites. Usage:
  diagnostics-audit.py [--root DIR] [--uncovered] [--check] [--verbose]
--check exits 1 when a site is neither covered nor listed, with its
reason, in tools/diagnostics-audit.allow (`key  # reason`), or when an
allowlist line has no reason or names no uncovered diagnostic.
"""
import argparse
import collections
import glob
import os
import re
import sys

MIN_KEY = 12  # shortest fragment that identifies a message
MIN_SHORT_KEY = 6  # a message with no longer text than this has no key

TEST_SUFFIXES = (".test", ".ll", ".hip", ".cl", ".mlir", ".c", ".cpp", ".td",
                 ".py", ".s", ".mir")

# A call is a site unless the name is preceded by `.`, `->` or `::` (a
# member or a qualified definition) where the rule says so.
FREE = r"(?<![\w.>:])"
MEMBER_OK = r"(?<![\w:])"


class Rule:
    """Sites of one kind: calls (`pattern` ending in `(`) or statements
    (`pattern` ending in `=`) in the files of `globs`; `name` is the index
    of a remark's name argument, `msg` the message arguments (None: all)."""

    def __init__(self, kind, globs, pattern, name=None, msg=None,
                 statement=False, pass_name=None, skip=(), prefix="",
                 suffix=""):
        self.kind = kind
        self.globs = globs
        self.regex = re.compile(pattern)
        self.name = name
        self.msg = msg
        self.statement = statement
        self.pass_name = pass_name
        self.skip = set(skip) | ({name} if name is not None else set())
        self.prefix = prefix
        self.suffix = suffix

    def affix(self, runs, begins, ends):
        """Variants of `runs` with the text the emitting helper puts around
        a message that begins or ends with a literal: they make short
        messages distinctive ("given twice" is reported as
        "KEY: given twice (at column N of the config)")."""
        out = []
        if runs and begins and self.prefix:
            out.append(self.prefix + runs[0])
        if runs and ends and self.suffix:
            out.append(runs[-1] + self.suffix)
        if len(runs) == 1 and begins and ends and self.prefix and \
                self.suffix:
            out.append(self.prefix + runs[0] + self.suffix)
        return out


LIB = ["lib/**/*.cpp"]
RECOGNIZER = "crosslane-recognize-arg"
RUN = "crosslane-run: error: "
REDUCE = "crosslane-reduce: error: "
HIPCC = "crosslane-hipcc: error: "
RULES = [
    Rule("unsupported", LIB, r"\bDiagnosticInfoUnsupported\s*\(", msg=[1]),
    Rule("generic", LIB, r"\bDiagnosticInfoGeneric\s*\(", msg=[0]),
    Rule("remark", LIB,
         r"\bOptimizationRemark(?:Missed|Analysis)?\s*(?:[A-Z]\w*\s*)?\(",
         name=1),
    # Helpers that wrap DiagnosticInfoUnsupported.
    Rule("unsupported", ["lib/SubgroupReduce/ExpandSubgroup.cpp"],
         FREE + r"diagnose\s*\(", msg=[1]),
    # ExpandSubgroup's comparator checks: Fail(WHY) reports "crosslane:
    # comparator of 'OP' WHY".
    Rule("unsupported", ["lib/SubgroupReduce/ExpandSubgroup.cpp"],
         FREE + r"Fail\s*\(", msg=[0]),
    Rule("unsupported", ["lib/Xe/XeBlockIO.cpp"], FREE + r"error\s*\(",
         msg=[1], prefix=": "),
    Rule("unsupported", ["lib/Vortex/VortexKernelABI.cpp"],
         FREE + r"error\s*\(", msg=[1]),
    Rule("unsupported", ["lib/Vortex/VortexDivergence.cpp"],
         FREE + r"diagnose(?:Error)?\s*\(", msg=[2]),
    # Messages XeBlockIO's error() reports, made by the shape rules and the
    # call decoder.
    Rule("unsupported", ["lib/Xe/BlockShapes.cpp"],
         r"\breturn\b(?=\s*(?:\(\s*Twine\s*\(\s*)?\")", statement=True,
         prefix=": "),
    Rule("unsupported", ["lib/Xe/XeBlockIO.cpp"], r"\bMalformed\s*=(?!=)",
         statement=True, prefix=": "),
    # Remark helpers: the name is an argument.
    Rule("remark", ["lib/Xe/XeBlockIO.cpp"], FREE + r"missed\s*\(", name=1),
    Rule("remark", ["lib/ArgRecognition/*.cpp"], FREE + r"refuse\s*\(",
         name=1, pass_name=RECOGNIZER),
    Rule("remark", ["lib/ArgRecognition/*.cpp"], FREE + r"refusal\s*\(",
         name=0, pass_name=RECOGNIZER),
    # emitRemark(S, At, Name, CopyName, Msg): two remark names.
    Rule("remark", ["lib/ArgRecognition/*.cpp"],
         FREE + r"emitRemark<\w+>\s*\(", name=2, skip=[3],
         pass_name=RECOGNIZER),
    Rule("remark", ["lib/ArgRecognition/*.cpp"],
         FREE + r"emitRemark<\w+>\s*\(", name=3, skip=[2],
         pass_name=RECOGNIZER),
    # Pass parameters.
    Rule("param", LIB, r"\bmake_error<StringError>\s*\(", prefix="error: "),
    # Lowering configs (reported by crosslane-reduce).
    Rule("config",
         ["lib/LoweringConfig/*.cpp", "tools/crosslane-reduce/*.cpp"],
         FREE + r"(?:makeError|createStringError)\s*\(", prefix=REDUCE),
    Rule("config", ["lib/LoweringConfig/ConfigParser.cpp"],
         FREE + r"error\s*\(", prefix=": ", suffix=" (at column "),
    # Tools.
    Rule("tool", ["tools/crosslane-run/*.cpp"], FREE + r"fatal\s*\(",
         prefix=RUN),
    Rule("tool", ["tools/crosslane-reduce/*.cpp"], FREE + r"fatal\s*\(",
         prefix=REDUCE),
    Rule("tool", ["tools/crosslane-run/*.cpp"],
         r"(?<![\w.>])Err\s*=(?!=)", statement=True, prefix=RUN),
    Rule("tool", ["tools/crosslane-reduce/*.cpp"],
         r"(?<![\w.>])Err\s*=(?!=)", statement=True, prefix=REDUCE),
    Rule("tool", ["tools/crosslane-vx-launch/*.cpp"], FREE + r"fail\s*\(",
         prefix="crosslane-vx-launch: error: "),
    Rule("tool", ["tools/crosslane-vortex-cc.in"], FREE + r"die\s*\(",
         prefix=HIPCC),
    Rule("tool", ["tools/crosslane-hipcc.in"],
         r"\becho\s+(?=\"crosslane-hipcc: error:)", statement=True),
    Rule("tool", ["clang-plugin/*.cpp"], r"\bgetCustomDiagID\s*\("),
    # The executor: fail() and failAt() append " at <location>".
    Rule("executor", ["lib/Executor/*.cpp"],
         MEMBER_OK + r"(?:fail|failAt)\s*\(", suffix=" at "),
    Rule("executor", ["lib/Executor/*.cpp"],
         r"(?<![\w.>])(?:Err|Why)\s*=(?!=)", statement=True),
    # A builtin's error: "builtin 'NAME': MESSAGE at <location>".
    Rule("executor", ["lib/Executor/*.cpp"], r"\bcreateStringError\s*\(",
         prefix="': ", suffix=" at "),
    # Header checks.
    Rule("header", ["include/crosslane/hip/crosslane.h"],
         r"\bdiagnose_if\s*\("),
]

# Out of scope, with the reason (docs/Diagnostics.md repeats it):
#   lib/VortexRuntime   hipError_t statuses of the Vortex HIP runtime
#   lib/ArgRecognition/CombineProgram.cpp fail()  the explanation after a
#                       refusal reason (the reason is the diagnostic)
#   lib/Xe/FormBlocks.cpp missed()  the explanation of a NotFormed remark
DEFINITION_WORDS = {"void", "bool", "Error", "unsigned", "int", "def",
                    "static", "auto", "string", "inline"}


# --------------------------------------------------------------------------
# Lexing


def strip_comments(text, python=False, shell=False):
    """`text` with comments blanked (newlines kept); strings untouched."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if (python or shell) and c == "#":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif not (python or shell) and text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif not (python or shell) and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"' or (c == "'" and (python or shell)):
            j = skip_string(text, i)
            out.append(text[i:j])
            i = j
        elif c == "'" and not (python or shell):
            # A character literal (not a digit separator).
            if i > 0 and text[i - 1].isalnum():
                out.append(c)
                i += 1
                continue
            j = skip_string(text, i)
            out.append(text[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def skip_string(text, i):
    """The index after the string or character literal at `i`."""
    q = text[i]
    j = i + 1
    while j < len(text) and text[j] != q:
        if text[j] == "\\":
            j += 1
        elif text[j] == "\n":
            break
        j += 1
    return j + 1


def code_chars(code, i=0):
    """(index, character) of code[i:] outside string and character literals
    (a quote after a letter or digit is a digit separator, not a literal)."""
    j = i
    while j < len(code):
        c = code[j]
        if c in "\"'" and not (c == "'" and j > 0 and code[j - 1].isalnum()):
            j = skip_string(code, j)
            continue
        yield j, c
        j += 1


def balanced_end(code, i):
    """The index after the parenthesised group opening at code[i] == '('."""
    depth = 0
    for j, c in code_chars(code, i):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(code)


def statement_end(code, i):
    """The index of the `;` (or newline, for scripts) ending a statement."""
    depth = 0
    for j, c in code_chars(code, i):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return j
            depth -= 1
        elif c == ";" and depth == 0:
            return j
    return len(code)


def split_args(span):
    """Top-level comma-separated arguments of `span` (without the parens)."""
    args, depth, start = [], 0, 0
    for j, c in code_chars(span):
        if c in "([{<" and not (c == "<" and span[j:j + 2] == "<<"):
            depth += c != "<"
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            args.append(span[start:j])
            start = j + 1
    args.append(span[start:])
    return args


STRING_TOKEN = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'')


def unescape(s):
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(
        m.group(1), m.group(1)), s)


def literal_runs(span, quotes="\""):
    """The string-literal runs of `span`: adjacent literals concatenated
    (C++ and Python), each run a list of decoded pieces."""
    runs, last_end = [], None
    for m in STRING_TOKEN.finditer(span):
        if m.group(1) is None and "'" not in quotes:
            continue
        body = m.group(1) if m.group(1) is not None else m.group(2)
        # A C++ character literal is no message.
        if m.group(1) is None and len(unescape(body)) <= 1:
            continue
        text = unescape(body)
        between = span[last_end:m.start()] if last_end is not None else None
        if between is not None and between.strip(" \t\n\\") == "" and runs:
            runs[-1] += text
        else:
            runs.append(text)
        last_end = m.end()
    return runs


PLACEHOLDER = re.compile(
    r"\{\d+(?:,[^}]*)?\}|%[-+ #0-9.]*(?:z|l|ll|h)?[sdiuxXfgecp%]|%\d+"
    r"|\$\{?[A-Za-z_#][\w%:#*]*\}?|@\w+@|\n")


def usable(fragment):
    """A fragment long and wordy enough to identify a message (not an
    identifier such as an intrinsic's name, which IR tests contain)."""
    return (len(fragment) >= MIN_KEY and " " in fragment and
            re.search(r"[A-Za-z]{4}", fragment) is not None and
            len(re.findall(r"[A-Za-z]{2,}", fragment)) >= 2)


def fragments(run):
    """Pieces of a literal run without placeholders, longest first."""
    out = []
    for piece in PLACEHOLDER.split(run):
        piece = piece.strip()
        if piece:
            out.append(piece)
    return out


def skeletons(runs):
    """Regexes for one line that holds `runs`' pieces in order, with
    anything between them (the values a message interpolates): all of
    them, then without the first one or two (a test may match a message's
    start with {{.*}}); none when the pieces say too little to identify the
    message. A run may be a list: the alternatives of a `c ? "a" : "b"`."""
    pieces = []
    for r in runs:
        if isinstance(r, list):
            pieces.append("(?:%s)" % "|".join(re.escape(a) for a in r))
        else:
            pieces += [re.escape(p) for p in PLACEHOLDER.split(r) if p.strip()]
    out = []
    for drop in range(3):
        rest = pieces[drop:]
        text = re.sub(r"\\(.)", r"\1", "".join(rest))
        if len(rest) < 2 or len(text.replace(" ", "")) < MIN_KEY or \
                not re.search(r"[A-Za-z]{4}", text):
            break
        out.append(re.compile("[^\n]*?".join(rest)))
    return out


# --------------------------------------------------------------------------
# Sites


class Site:
    """One place that emits a message: its literal runs (and the runs with
    the emitting helper's text, `affixed`), the fragments that can serve
    as its key and the skeletons of its text (`shape`: the runs with a
    `c ? "a" : "b"` of short words as one list)."""

    def __init__(self, path, line, kind, name=None, runs=(), pass_name="",
                 affixed=(), affixes=("", ""), lead="", shape=None,
                 begins=True):
        self.path = path
        self.line = line
        self.kind = kind
        self.name = name  # a remark's name
        self.pass_name = pass_name
        self.runs = [r for r in runs if r.strip()]
        # The runs with the emitting helper's text around them.
        self.affixed = [r for r in affixed if r.strip()]
        raw = {f for r in self.runs for f in fragments(r)}
        # Its clauses (split at ": ") too: a test may check one of them.
        raw |= {c.strip() for f in list(raw) for c in f.split(": ")}
        # And the text before a parenthesis, which a test may leave out.
        raw |= {f.split(" (")[0].strip() for f in list(raw) if " (" in f}
        raw.discard("")
        frags = {f for f in raw if usable(f)}
        # A helper's text makes a short message distinctive ("given twice"
        # is reported as "...: given twice (at column N ...").
        prefix, suffix = (a.strip() for a in affixes)
        for f in {f for r in self.affixed for f in fragments(r)} - raw:
            core = f
            if prefix and core.startswith(prefix):
                core = core[len(prefix):]
            if suffix and core.endswith(suffix):
                core = core[:-len(suffix)]
            if usable(f) and len(core.strip()) >= MIN_SHORT_KEY and \
                    re.search(r"[A-Za-z]{4}", core):
                frags.add(f)
        self.frags = sorted(frags, key=lambda f: (-len(f), f))
        self.shorts = sorted((f for f in raw if not usable(f) and
                              len(f) >= MIN_SHORT_KEY and
                              re.search(r"[A-Za-z]{4}", f)),
                             key=lambda f: (-len(f), f))
        self.key = None
        self.keys = []  # fragments usable as keys, best first
        self.shared = False  # the key is in another site's text too
        self.same_text = False  # ... which is this site's message
        # The message begins with a caller's text (`What + "..."`).
        self.template = not begins and kind != "remark"
        self.short = False
        # `lead`: the helper's prefix, when the message begins with text. (A
        # remark's statements may be alternatives: scan_file adds theirs.)
        self.skeletons = skeletons(
            [lead + r if k == 0 and isinstance(r, str) else r
             for k, r in enumerate(shape or self.runs)])

    @property
    def where(self):
        return "%s:%d" % (self.path, self.line)

    @property
    def text(self):
        return "\x00".join(self.runs + self.affixed)


def debug_type(code):
    m = re.search(r'#define\s+DEBUG_TYPE\s+"([^"]+)"', code)
    return m.group(1) if m else ""


def previous_statement(code, ident, before):
    """The right-hand side of the last assignment to local `ident` before
    offset `before` (at most 40 lines up): a message built in a variable."""
    start = code.rfind("\n", 0, max(0, before))
    for _ in range(40):
        start = code.rfind("\n", 0, start)
        if start < 0:
            break
    start = max(start, 0)
    region = code[start:before]
    best = None
    for m in re.finditer(r"\b%s\s*(\+?=)(?!=)" % re.escape(ident), region):
        best = m
    if not best:
        return ""
    return region[best.end():statement_end(region, best.end())]


def block_end(code, i):
    """The index of the `}` closing the block that holds offset `i`."""
    depth = 0
    for j, c in code_chars(code, i):
        if c == "{":
            depth += 1
        elif c == "}":
            if depth == 0:
                return j
            depth -= 1
    return len(code)


def streamed(span):
    """The literal runs `span` streams with top-level `<<` (not those
    inside calls such as ore::NV("Key", V) or describe(...))."""
    ops, depth, start, second = [], 0, 0, -1
    for j, c in code_chars(span):
        if j == second:  # the second '<' of a `<<`
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif span.startswith("<<", j) and depth == 0:
            ops.append(span[start:j])
            start = j + 2
            second = j + 1
    ops.append(span[start:])
    runs = []
    for op in ops[1:]:
        if re.fullmatch(r'\s*(?:"(?:[^"\\\n]|\\.)*"\s*)+', op):
            runs += literal_runs(op)
    return runs


def is_definition(code, m, end):
    """Whether the call matched by `m` is the helper's own definition."""
    line_start = code.rfind("\n", 0, m.start()) + 1
    before = code[line_start:m.start()].split()
    if before and (before[-1] in DEFINITION_WORDS or
                   before[-1].endswith("::") or before[-1] == "]]"):
        return True
    after = code[end:end + 40].lstrip()
    after = re.sub(r"^(const|override)\s*", "", after)
    return after.startswith("{")


def scan_file(root, rel, rules):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        raw = f.read()
    python = rel.endswith("vortex-cc.in")
    shell = rel.endswith("hipcc.in")
    code = strip_comments(raw, python=python, shell=shell)
    dtype = debug_type(code)
    sites = []
    for rule in rules:
        for m in rule.regex.finditer(code):
            line = code.count("\n", 0, m.start()) + 1
            if rule.statement:
                if shell:
                    end = code.find("\n", m.end())
                else:
                    end = statement_end(code, m.end())
                span = code[m.end():end]
                args = [span]
            else:
                open_paren = m.end() - 1
                end = balanced_end(code, open_paren)
                if is_definition(code, m, end):
                    continue
                span = code[open_paren + 1:end - 1]
                args = split_args(span)
            quotes = "\"'" if python else "\""
            if rule.kind == "remark":
                if rule.name >= len(args):
                    continue
                runs = literal_runs(args[rule.name], quotes)
                if len(runs) != 1 or not re.fullmatch(r"[A-Z]\w*",
                                                      args[rule.name].strip()
                                                      .strip('"')):
                    continue  # the name is a variable: a wrapper
                name = runs[0]
                direct = rule.regex.pattern.startswith(
                    r"\bOptimizationRemark")
                text = [r for k, a in enumerate(args)
                        if k not in rule.skip and not (direct and k == 0)
                        for r in literal_runs(a, quotes)]
                # The text streamed into a remark object: one statement,
                # or (`OptimizationRemark R(...)`) each `R << ...` of the
                # enclosing block, which may be alternatives.
                tail_end = statement_end(code, end)
                parts = [streamed(code[end:tail_end])]
                var = re.match(r"OptimizationRemark\w*\s+([A-Z]\w*)\s*\(",
                               m.group(0))
                if var:
                    block = code[end:block_end(code, end)]
                    for sm in re.finditer(
                            r"\b(?:return\s+)?%s\s*<<" % var.group(1), block):
                        parts.append(streamed(
                            block[sm.end():statement_end(block, sm.end())]))
                text += [r for p in parts for r in p]
                alternatives = [p for p in parts if p]
                pass_name = dtype or rule.pass_name or ""
                first = args[0].strip() if args else ""
                if direct and first.startswith('"'):
                    pass_name = literal_runs(first)[0]
                site = Site(rel, line, "remark", name, text, pass_name)
                site.skeletons += [k for a in alternatives
                                   for k in skeletons(a)]
                sites.append(site)
                continue
            if rule.msg is None:
                # From the first argument with text (not an error code).
                first = next((k for k, a in enumerate(args)
                              if literal_runs(a, quotes)), len(args))
                pick = args[first:]
            else:
                pick = [args[k] for k in rule.msg if k < len(args)]
            if rule.kind == "header":
                pick = [a for a in pick
                        if a.strip() not in ('"error"', '"warning"')]
            expr = ",".join(pick)
            runs = [r for a in pick for r in literal_runs(a, quotes)]
            if not runs:
                # A message in a local variable: its assignment's literals.
                for a in pick:
                    ident = a.strip()
                    if re.fullmatch(r"[A-Z]\w*", ident):
                        expr = previous_statement(code, ident, m.start())
                        runs = literal_runs(expr, quotes)
            # `c ? "one message" : "another"`: a site for each.
            for variant in ternary_alternatives(expr) or [expr]:
                vruns = runs if variant is expr else literal_runs(variant)
                begins = bool(re.match(
                    r'\s*(?:(?:Twine|std::string|StringRef)\s*\(|\()*\s*"',
                    variant))
                ends = bool(re.search(r'"[\s)]*(?:\.str\(\))?[\s)]*$',
                                      variant))
                if not begins and not any(len(f) >= MIN_KEY for r in vruns
                                          for f in fragments(r)):
                    continue  # passes on a message made elsewhere
                sites.append(Site(rel, line, rule.kind, None, vruns,
                                  affixed=rule.affix(vruns, begins, ends),
                                  affixes=(rule.prefix, rule.suffix),
                                  lead=rule.prefix if begins else "",
                                  shape=ternary_shape(variant),
                                  begins=begins))
    return sites


def ternary_alternatives(span):
    """`span` once with each alternative of its `c ? "A" : "B"` (both
    messages of their own), or None."""
    m = re.search(r'\?\s*((?:"(?:[^"\\\n]|\\.)*"\s*)+):\s*'
                  r'((?:"(?:[^"\\\n]|\\.)*"\s*)+)', span)
    if not m:
        return None
    a, b = literal_runs(m.group(1)), literal_runs(m.group(2))
    if not all(any(len(f) >= MIN_KEY for f in fragments(r)) for r in a + b):
        return None
    head = span[:m.start()]
    # The condition before `?` holds no message text.
    head = head[:max(head.rfind("("), head.rfind("="), head.rfind(","), 0)
                + 1]
    return [head + m.group(k) + span[m.end():] for k in (1, 2)]


def ternary_shape(span):
    """The literal runs of `span` with the alternatives of a
    `c ? "a" : "b"` of short words as one list, or None without one."""
    m = re.search(r'\?\s*((?:"(?:[^"\\\n]|\\.)*"\s*)+):\s*'
                  r'((?:"(?:[^"\\\n]|\\.)*"\s*)+)', span)
    if not m:
        return None
    alts = literal_runs(m.group(1)) + literal_runs(m.group(2))
    if len(alts) != 2:
        return None
    return literal_runs(span[:m.start()]) + [alts] + \
        literal_runs(span[m.end():])


def collect_sites(root):
    sites = []
    files = collections.OrderedDict()
    for rule in RULES:
        for g in rule.globs:
            for p in sorted(glob.glob(os.path.join(root, g), recursive=True)):
                rel = os.path.relpath(p, root)
                files.setdefault(rel, []).append(rule)
    for rel, rules in files.items():
        sites += scan_file(root, rel, rules)
    # A site found by two rules (a helper that is also a generic pattern)
    # counts once.
    seen, unique = set(), []
    for s in sites:
        ident = (s.path, s.line, s.kind, s.name, tuple(s.runs))
        if ident not in seen:
            seen.add(ident)
            unique.append(s)
    return unique


def choose_keys(sites):
    """Each message site's keys: its fragments that no other site's text
    contains, longest first; warns about keys shared between sites."""
    warnings = []
    texts = [(s, s.text) for s in sites]
    for s in sites:
        if s.kind == "remark":
            s.key = s.name
            others = [t for o, t in texts if o is not s and o.kind != "remark"]
            s.keys = [f for f in s.frags if len(f) >= MIN_KEY and
                      not any(f in t for t in others) and
                      not any(f in o.text for o in sites
                              if o.kind == "remark" and o.name != s.name)]
            continue
        others = [t for o, t in texts if o is not s]
        good = s.frags
        unique = [f for f in good if not any(f in t for t in others)]
        if unique:
            s.keys = unique
        elif good:
            s.keys = good[:1]
            s.shared = True
            sharers = [o for o, t in texts if o is not s and good[0] in t]
            # The same message from several places: a test of one covers
            # the text of all. A message inside a longer one is not.
            s.same_text = all(o.text == s.text for o in sharers)
            sharers = [o.where for o in sharers]
            warnings.append("%s: key '%s' also matches %s" % (
                s.where, good[0], ", ".join(sharers)))
        elif s.shorts:
            s.keys = s.shorts[:1]
            s.short = True
        s.key = s.keys[0] if s.keys else None
    return warnings


# --------------------------------------------------------------------------
# Tests


def load_tests(root):
    tests = {}
    for top in ("test", "unittests"):
        for dirpath, dirnames, names in os.walk(os.path.join(root, top),
                                                followlinks=True):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            for n in sorted(names):
                if not n.endswith(TEST_SUFFIXES):
                    continue
                p = os.path.join(dirpath, n)
                try:
                    with open(p, encoding="utf-8", errors="replace") as f:
                        body = f.read()
                except OSError:
                    continue
                if not n.endswith((".py", ".cpp")):
                    body = "\n".join(l for l in body.splitlines()
                                     if DIRECTIVE.match(l))
                tests[os.path.relpath(p, root)] = body
    return tests


# What a test states about output: FileCheck and RUN lines (not -NOT
# lines, not comments). Test generators (.py) and unit tests (.cpp) count
# whole.
DIRECTIVE = re.compile(r"^\W*[A-Za-z][\w-]*(?<!-NOT)(?<!-NOT-\d)\s*:(?!:)")


def distinctive(name):
    """A CamelCase remark name unlikely to be an ordinary word."""
    return len(re.findall(r"[A-Z]", name)) >= 2 and len(name) >= 6


def find_tests(tests, needle=None, regex=None):
    hits = []
    for path in sorted(tests):
        body = tests[path]
        if (needle is not None and needle in body) or (
                regex is not None and regex.search(body)):
            hits.append(path)
    return hits


class Row:
    """One diagnostic: a message site, or a pass's remark name (all its
    sites)."""

    def __init__(self, sites):
        self.sites = sites
        s = sites[0]
        self.kind = s.kind if s.kind != "remark" else "remark"
        self.key = s.key
        self.tests = []
        self.matched = None
        self.allowed = None
        self.vague = False  # covered only through text another site shares

    @property
    def where(self):
        s = self.sites[0]
        more = " (+%d)" % (len(self.sites) - 1) if len(self.sites) > 1 else ""
        return s.where + more

    @property
    def label(self):
        if self.kind == "remark":
            return "remark %s" % self.sites[0].pass_name
        return self.kind


def build_rows(sites):
    rows, remarks = [], collections.OrderedDict()
    for s in sites:
        if s.kind == "remark":
            remarks.setdefault((s.pass_name, s.name), []).append(s)
        elif s.key is not None:
            rows.append(Row([s]))
    for group in remarks.values():
        rows.append(Row(group))
    rows.sort(key=lambda r: (r.sites[0].path, r.sites[0].line, r.key or ""))
    return rows


def cover(rows, tests):
    for r in rows:
        if r.kind == "remark":
            name = r.key
            pats = [r"\bName:\s*'?%s'?\b" % re.escape(name),
                    r"\(%s\)" % re.escape(name)]
            if distinctive(name):
                pats.append(r"(?<![\w-])%s(?![\w-])" % re.escape(name))
            hits = find_tests(tests, regex=re.compile("|".join(pats)))
            if hits:
                r.tests, r.matched = hits, name
                continue
            for s in r.sites:
                match_site(r, s, tests)
                if r.tests:
                    break
            continue
        match_site(r, r.sites[0], tests)
        if r.tests and r.kind != "remark":
            r.key = r.matched


def match_site(r, s, tests):
    """Covers row `r` by site `s`'s distinctive fragments, else by its
    skeleton, else by a fragment it shares or a short one."""
    vague = s.shared or s.short
    if not vague:
        for k in s.keys:
            hits = find_tests(tests, needle=k)
            if hits:
                r.tests, r.matched = hits, k
                return
    for k in s.skeletons:
        hits = find_tests(tests, regex=k)
        if hits:
            r.tests, r.matched = hits, s.keys[0] if s.keys else r.key
            return
    # A template (`What + " is poison in lane "`) or a message several
    # places emit: any test of its shared text counts, with a warning.
    if s.short or s.same_text or s.template:
        for k in s.keys:
            hits = find_tests(tests, needle=k)
            if hits:
                r.tests, r.matched = hits, k
                r.vague = True
                return


def load_allowlist(path):
    entries = []
    if not os.path.exists(path):
        return entries
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            text = line.rstrip("\n")
            if not text.strip() or text.lstrip().startswith("#"):
                continue
            key, _, reason = text.partition("#")
            entries.append((n, key.strip(), reason.strip()))
    return entries


def apply_allowlist(rows, entries):
    """Marks the uncovered rows an entry names (a remark's name, or text of
    the message); returns the problems: an entry without a reason, or one
    that names no uncovered diagnostic (stale: covered now, or gone)."""
    problems = []
    for n, key, reason in entries:
        if not reason:
            problems.append("allowlist line %d: '%s' gives no reason" %
                            (n, key))
        hits = [r for r in rows if (r.kind == "remark" and r.key == key) or
                (r.kind != "remark" and any(key in s.text for s in r.sites))]
        open_hits = [r for r in hits if not r.tests]
        if not open_hits:
            problems.append(
                "allowlist line %d: '%s' %s; remove the line" %
                (n, key, "is covered by " + hits[0].tests[0] if hits else
                 "matches no diagnostic"))
            continue
        for r in open_hits:
            r.allowed = reason
    return problems


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))),
        help="source tree (default: this script's)")
    ap.add_argument("--uncovered", action="store_true",
                    help="list only the sites no test covers")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 if a site is uncovered and not allowlisted")
    ap.add_argument("--allow", help="allowlist (default: "
                    "ROOT/tools/diagnostics-audit.allow)")
    ap.add_argument("--verbose", action="store_true",
                    help="also print the key-sharing warnings of covered "
                    "sites and every site's test count")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    sites = collect_sites(root)
    warnings = choose_keys(sites)
    rows = build_rows(sites)
    cover(rows, load_tests(root))
    allow = args.allow or os.path.join(root, "tools",
                                       "diagnostics-audit.allow")
    problems = apply_allowlist(rows, load_allowlist(allow))
    uncovered = [r for r in rows if not r.tests and not r.allowed]

    def state(r):
        if r.tests:
            return "%d, %s" % (len(r.tests), r.tests[0])
        if r.allowed:
            return "allowlisted: " + r.allowed
        return "UNCOVERED"

    shown = uncovered if args.uncovered else rows
    for r in shown:
        key = r.key + (" (short key)" if any(s.short for s in r.sites)
                       else "")
        print("%s | %s | %s | %s" % (r.where, r.label, key, state(r)))
    for w in warnings:
        row = next(r for r in rows if w.startswith(r.sites[0].where + ":"))
        if args.verbose or (not row.tests and not row.allowed) or row.vague:
            print("warning: " + w + (" (covered through it: %s)" %
                                      row.tests[0] if row.vague else ""),
                  file=sys.stderr)
    for p in problems:
        print("error: " + p, file=sys.stderr)

    kinds = collections.Counter(r.kind for r in rows)
    tested = collections.Counter(r.kind for r in rows if r.tests)
    print()
    for k in sorted(kinds):
        print("%-12s %4d diagnostics, %4d tested" % (k, kinds[k], tested[k]))
    print("%d diagnostics, %d uncovered (%d tested, %d allowlisted) at %d "
          "sites" % (len(rows), len(uncovered), sum(tested.values()),
                     sum(1 for r in rows if r.allowed and not r.tests),
                     len(sites)))
    if uncovered and not args.uncovered:
        print("\nUNCOVERED:")
        for r in uncovered:
            print("  %s | %s | %s" % (r.where, r.label, r.key))
    if args.check and (uncovered or problems):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
