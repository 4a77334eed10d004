#!/usr/bin/env python3
"""Rough balance check for the Bargain Quest card set (standalone, no project imports).

Parses the card tables of bargain_quest_cards.part by splitting rows on "|", checks the
component counts of the rule text (BQ1) and prints distributions and, per monster rank, the
chance that a random hero with 2 random class-matching items and a random adventure card
wounds / survives the monster (abilities ignored).

Usage: python3 balance.py [path/to/bargain_quest_cards.part]
"""
import re
import sys
from collections import Counter
from itertools import combinations

PATH = sys.argv[1] if len(sys.argv) > 1 else "rulesets/bargain_quest_cards.part"


def parse(path):
    """{kind: [row dict with attributes and 'copies']}; attribute order from the declaration."""
    kinds, attrs, kind, in_table = {}, {}, None, False
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        m = re.match(r"card (\w+)\b", line)
        if m:
            kind, in_table = m.group(1), False
            kinds[kind], attrs[kind] = [], []
            continue
        if kind is None:
            continue
        if line and not line[0].isspace() and not line.startswith("#"):
            kind = None  # a new top-level declaration ends the card block
            continue
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if s == "table:":
            in_table = True
            continue
        if not in_table:
            m = re.match(r"(\w+)\s*:", s)
            if m:
                attrs[kind].append(m.group(1))
            continue
        if "|" in s:
            vals = [v.strip().strip('"') for v in s.split("|")]
            names = attrs[kind]
            assert len(vals) in (len(names), len(names) + 1), (kind, s)
            row = dict(zip(names, vals))
            row["copies"] = int(vals[-1]) if len(vals) == len(names) + 1 else 1
            for k, v in row.items():
                if k in ("classes",):
                    row[k] = {c.strip() for c in v.split(",")}
                elif isinstance(v, str) and re.fullmatch(r"-?\d+", v):
                    row[k] = int(v)
            kinds[kind].append(row)
    return kinds


def total(rows):
    return sum(r["copies"] for r in rows)


def expand(rows):
    return [r for r in rows for _ in range(r["copies"])]


def hist(counter):
    return "  ".join(f"{k}:{counter[k]}" for k in sorted(counter))


def main():
    k = parse(PATH)
    counts = {name: total(rows) for name, rows in k.items()}
    print("counts per kind (cards, distinct names):")
    for name, rows in k.items():
        print(f"  {name:10} {counts[name]:4}  ({len(rows)} distinct)")
    expected = {"item": 120, "hero": 16, "monster": 12, "employee": 20, "upgrade": 12, "adventure": 18}
    assert counts == expected, counts

    heroes, items, monsters = k["hero"], k["item"], k["monster"]
    for base in ("Rogue", "Fighter", "Cleric", "Mage"):
        assert [r["copies"] for r in heroes if r["name"] == base] == [2], base
    assert all(1 <= len(r["classes"]) <= 2 for r in heroes + items)
    ranks = Counter(r["rank"] for r in expand(monsters))
    assert ranks == {1: 4, 2: 4, 3: 4}, ranks
    first = {r["name"]: r["rank"] for r in monsters}
    assert first.get("Bandit Captain") == 1 and first.get("Orc Warlord") == 2 \
        and first.get("Vampire Queen") == 3
    types = Counter(r["type"] for r in expand(k["upgrade"]))
    assert types == {"more_display": 6, "more_storage": 6}, types
    for name, rows in k.items():
        assert all(r.get("adventure") in ("yes", "no") for r in rows), name
    refs = {name: sum(r["copies"] for r in rows if r["adventure"] == "yes") for name, rows in k.items()}
    print("cards referencing adventure cards (by copies):", refs)
    assert refs["hero"] >= 2 and refs["item"] >= 2 and refs["monster"] >= 1 and refs["employee"] >= 2
    declared = re.findall(r'^ability (\w+) "[^"]+":$', open(PATH, encoding="utf-8").read(), re.M)
    used = {r["ability"] for rows in k.values() for r in rows if "ability" in r} - {"none"}
    assert len(declared) == len(set(declared)), "ability declared twice"
    assert used <= set(declared), used - set(declared)
    assert set(declared) <= used, set(declared) - used
    print(f"abilities: {len(declared)} declared, all used, all declared")
    # The adventure column must be yes exactly when the ability names adventure cards / the deck.
    bodies, cur = {}, None
    for line in open(PATH, encoding="utf-8"):
        m = re.match(r'ability (\w+) "', line)
        if m:
            cur = m.group(1)
            bodies[cur] = line  # the display text counts too
        elif cur and line.startswith("    "):
            bodies[cur] += line
        else:
            cur = None
    mentions = {a: bool(re.search(r"adventure_deck|adventure\[|adventure card", b)) for a, b in bodies.items()}
    for name, rows in k.items():
        for r in rows:
            refers = mentions.get(r.get("ability", "none"), False)
            assert (r["adventure"] == "yes") == refers, (name, r["name"])
    print("adventure column: consistent with the ability texts")
    names = [r["name"] for name in ("item", "hero", "monster", "employee", "upgrade", "adventure")
             for r in k[name]]
    assert len(names) == len(set(names)), [n for n, c in Counter(names).items() if c > 1]

    deck = expand(items)
    print("\nitems: price distribution (copies):", hist(Counter(r["price"] for r in deck)))
    print("items: hearts distribution:        ", hist(Counter(r["hearts"] for r in deck)))
    print("items: attack bonus distribution:  ", hist(Counter(r["attack"] for r in deck)))
    print("items: defense bonus distribution: ", hist(Counter(r["defense"] for r in deck)))
    print("items: class icons:                ", hist(Counter(c for r in deck for c in r["classes"])))
    print("items: number of classes:          ", hist(Counter(len(r["classes"]) for r in deck)))
    print("items: with an ability:            ", sum(r["ability"] != "none" for r in deck))
    hd = expand(heroes)
    print("heroes: class icons:               ", hist(Counter(c for r in hd for c in r["classes"])))
    print("heroes: attack / defense / purse:  ",
          f"{sum(r['attack'] for r in hd) / 16:.2f} / {sum(r['defense'] for r in hd) / 16:.2f}"
          f" / {sum(r['purse'] for r in hd) / 16:.2f}")
    adv = expand(k["adventure"])
    print("adventure: attack modifiers:       ", hist(Counter(r["attack"] for r in adv)),
          f" mean {sum(r['attack'] for r in adv) / len(adv):+.2f}")
    print("adventure: defense modifiers:      ", hist(Counter(r["defense"] for r in adv)),
          f" mean {sum(r['defense'] for r in adv) / len(adv):+.2f}")

    # Distribution of total attack and defense: random hero, 2 distinct random class-matching
    # item cards, random adventure card; every combination equally likely within a hero.
    atk_dist, def_dist = Counter(), Counter()
    for h in hd:
        match = [r for r in deck if r["classes"] & h["classes"]]
        pairs = list(combinations(match, 2))
        w = 1.0 / (len(hd) * len(pairs) * len(adv))
        pa = Counter(a["attack"] + b["attack"] for a, b in pairs)
        pd = Counter(a["defense"] + b["defense"] for a, b in pairs)
        for a in adv:
            for v, n in pa.items():
                atk_dist[h["attack"] + v + a["attack"]] += n * w
            for v, n in pd.items():
                def_dist[h["defense"] + v + a["defense"]] += n * w
    mean = lambda d: sum(v * p for v, p in d.items())
    print(f"\ntotal attack  (hero + 2 items + adventure): mean {mean(atk_dist):.2f}")
    print(f"total defense (hero + 2 items + adventure): mean {mean(def_dist):.2f}")
    at_least = lambda d, t: sum(p for v, p in d.items() if v >= t)

    print("\nper monster (abilities ignored):")
    print(f"  {'monster':20} rank tough str  wound  survive")
    by_rank = {}
    for m in monsters:
        pw, ps = at_least(atk_dist, m["toughness"]), at_least(def_dist, m["strength"])
        by_rank.setdefault(m["rank"], []).append((pw, ps))
        print(f"  {m['name']:20} {m['rank']:4} {m['toughness']:5} {m['strength']:3}  {pw:5.1%}  {ps:6.1%}")
    # The first design aimed at wound/survive rates of 70-85% (rank I), 45-60% (II) and
    # 25-40% (III) for this static model. Played with `rulesplay simulate --bot greedy`, that
    # set lost 36 of 40 four-player games to an empty hero deck, so the monsters were made
    # weaker (strength -1 for all, toughness -1 for ranks II and III, strength -1 more for
    # rank III) and the heroes sturdier (defense +1). These static rates are now above the
    # first targets; the play figures are the ones that count (see the comment at the end
    # of bargain_quest_cards.part).
    print("\nper rank (mean over its 4 monsters):")
    for rank in sorted(by_rank):
        vals = by_rank[rank]
        pw = sum(v[0] for v in vals) / len(vals)
        ps = sum(v[1] for v in vals) / len(vals)
        print(f"  rank {'I' * rank:3}  wound {pw:5.1%}  survive {ps:5.1%}")
    print("\nall counts checked")
    return 0

if __name__ == "__main__":
    sys.exit(main())
