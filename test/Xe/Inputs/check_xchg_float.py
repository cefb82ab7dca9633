# Runs opencl_xchg_float.cl's kernel on crosslane-run (4 work-groups of
# 32, subgroups of 16) and checks every value a work-item got back and
# every object's final bits against a simulation of OpenCL C 3.0
# §6.15.12.9's atomic_xchg written here: the active work-items of a
# subgroup exchange in turn, in lane order, each getting the previous
# value (the object's first, for the first one) and the object ending
# with the last one's; bits unchanged (signalling NaNs, payloads, -0,
# subnormals).
#   check_xchg_float.py CROSSLANE_RUN MODULE
import os, random, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xe_run

Run, Module = sys.argv[1], sys.argv[2]
GROUPS, BLOCK, SG, FORMS = 4, 32, 16, 5
ITEMS = GROUPS * BLOCK
SUBGROUPS = ITEMS // SG


def floats(rnd, n):
    pool = [0, 0x80000000, 1, 0x807fffff, 0x00800000, 0x7f7fffff,
            0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc00005,
            0x7fffffff, 0x3f800000]
    return [rnd.choice(pool) if rnd.random() < 0.5 else rnd.getrandbits(32)
            for _ in range(n)]


def main():
    rnd = random.Random(41)
    Obj, V = floats(rnd, FORMS * SUBGROUPS), floats(rnd, FORMS * ITEMS)
    GotObj, _, GotOld = xe_run.run(
        Run, Module, 'xchg', [(32, Obj), (32, V)], [(32, FORMS * ITEMS)],
        ['--grid=%d' % GROUPS, '--block=%d' % BLOCK,
         '--arg=local:%d' % (4 * BLOCK // SG)])
    t = xe_run.Tally()

    def check(what, got, want):
        t.check('%s: got %#x, want %#x' % (what, got, want), got == want)
    for s in range(SUBGROUPS):
        for k in range(FORMS):
            obj = Obj[FORMS * s + k]
            for g in range(s * SG, (s + 1) * SG):
                if k == 4 and g % 3 == 1:  # inactive: nothing written
                    check('form %d item %d (inactive)' % (k, g),
                          GotOld[FORMS * g + k], 0)
                    continue
                check('form %d item %d' % (k, g), GotOld[FORMS * g + k], obj)
                obj = V[FORMS * g + k]
            check('form %d subgroup %d object' % (k, s),
                  GotObj[FORMS * s + k], obj)
    t.report()


main()
