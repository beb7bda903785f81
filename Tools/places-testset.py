#!/usr/bin/env python3
"""Build the geocoder's test set from an OpenStreetMap extract.

Reads the extract with pyosmium (PyPI `osmium`), independently of the
service's own reader, and writes one query per line, tab-separated:
`kind<TAB>query<TAB>lon<TAB>lat`, where lon,lat is where the answer must be
(within 50 m for a search; for `reverse`, the query is the point itself and
the answer must be an address within 30 m of it).

Kinds: `exact` ("350 5th Avenue"), `city` (with city, state and postcode),
`lowercase` (no capitals, no punctuation), `abbreviation` (street types and
compass words shortened or spelled out, ordinals spelled), `typo` (one letter
wrong, missing, added or swapped in the street's name), `punctuation`
(stray commas, dashes, dots), `place` (a named place whose name the map
gives once), `reverse` (a point up to 15 m from an address).

Usage: Tools/places-testset.py MAP.osm.pbf OUT.tsv [--addresses N] [--places N] [--seed S]
"""
import argparse
import collections
import math
import random
import re
import sys

import osmium

CATEGORY_KEYS = ["amenity", "railway", "public_transport", "aeroway", "tourism", "shop", "healthcare",
                 "leisure", "historic", "office", "place", "man_made", "building"]
RAILWAY = {"station", "halt", "tram_stop"}
ABBREVIATIONS = {"Street": "St", "Avenue": "Ave", "Boulevard": "Blvd", "Place": "Pl", "Road": "Rd", "Drive": "Dr",
                 "Lane": "Ln", "Square": "Sq", "Parkway": "Pkwy", "Plaza": "Plz", "Terrace": "Ter", "Court": "Ct",
                 "East": "E", "West": "W", "North": "N", "South": "S"}
ORDINALS = {"1st": "First", "2nd": "Second", "3rd": "Third", "4th": "Fourth", "5th": "Fifth", "6th": "Sixth",
            "7th": "Seventh", "8th": "Eighth", "9th": "Ninth", "10th": "Tenth", "11th": "Eleventh", "12th": "Twelfth"}


def metres(a, b):
    x = (b[0] - a[0]) * math.cos(math.radians((a[1] + b[1]) / 2)) * 111_195
    y = (b[1] - a[1]) * 111_195
    return math.hypot(x, y)


def offset(point, east, north):
    return (point[0] + east / (111_195 * math.cos(math.radians(point[1]))), point[1] + north / 111_195)


def normalised(text):
    return re.sub(r"[^a-z0-9]+", " ", text.lower().replace("'", "").replace("\u2019", "")).strip()


class Collector(osmium.SimpleHandler):
    def __init__(self):
        super().__init__()
        self.addresses = []
        self.places = []

    def take(self, tags, point):
        if point is None:
            return
        if "addr:housenumber" in tags and "addr:street" in tags:
            self.addresses.append((tags["addr:housenumber"], tags["addr:street"], tags.get("addr:city"),
                                   tags.get("addr:postcode"), point))
        name = tags.get("name")
        if name and "highway" not in tags:
            for key in CATEGORY_KEYS:
                value = tags.get(key)
                if value and value != "no" and (key != "railway" or value in RAILWAY) and \
                        (key != "public_transport" or value == "station") and \
                        (key != "aeroway" or value in ("aerodrome", "terminal")):
                    self.places.append((name, point))
                    break

    def node(self, node):
        self.take(node.tags, (node.location.lon, node.location.lat))

    def way(self, way):
        points = [(n.location.lon, n.location.lat) for n in way.nodes if n.location.valid()]
        if len(points) > 1 and points[0] == points[-1]:
            points = points[:-1]
        if points:
            centre = (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
            self.take(way.tags, centre)


def unique_by(items, key, reach):
    """Items whose key no other item far from them shares: a query can name them alone."""
    groups = collections.defaultdict(list)
    for item in items:
        groups[key(item)].append(item)
    kept = []
    for group in groups.values():
        if all(metres(group[0][-1], other[-1]) <= reach for other in group):
            kept.append(group[0])
    return kept


def typo(word, rng):
    i = rng.randrange(1, len(word) - 1)
    operation = rng.choice(["substitute", "delete", "insert", "swap"])
    letter = rng.choice("abcdefghijklmnopqrstuvwxyz")
    if operation == "substitute":
        return word[:i] + (letter if letter != word[i] else "x") + word[i + 1:]
    if operation == "delete":
        return word[:i] + word[i + 1:]
    if operation == "insert":
        return word[:i] + letter + word[i:]
    return word[:i] + word[i + 1] + word[i] + word[i + 2:] if word[i] != word[i + 1] else word[:i] + word[i + 1:]


def variants(number, street, city, postcode, rng):
    exact = f"{number} {street}"
    yield "exact", exact
    yield "city", f"{exact}, {city or 'New York'}, NY{' ' + postcode if postcode else ''}"
    yield "lowercase", normalised(f"{exact} {city or ''}")
    words = street.split()
    shortened = [ABBREVIATIONS.get(w, w) for w in words]
    spelled = [ORDINALS.get(w, w) for w in shortened]
    if spelled != words:
        yield "abbreviation", f"{number} {' '.join(spelled)}"
    candidates = [i for i, w in enumerate(words) if w.isalpha() and len(w) >= 4]
    if candidates:
        i = rng.choice(candidates)
        yield "typo", f"{number} {' '.join(words[:i] + [typo(words[i], rng)] + words[i + 1:])}"
    yield "punctuation", f"{number}, {street.replace(' ', ' - ', 1)}."


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("map")
    parser.add_argument("out")
    parser.add_argument("--addresses", type=int, default=600)
    parser.add_argument("--places", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    arguments = parser.parse_args()
    collector = Collector()
    collector.apply_file(arguments.map, locations=True)
    rng = random.Random(arguments.seed)
    addresses = unique_by(collector.addresses, lambda a: (normalised(a[0]), normalised(a[1])), 60)
    places = [p for p in unique_by(collector.places, lambda p: normalised(p[0]), 60) if len(normalised(p[0])) >= 4]
    sampled = rng.sample(addresses, min(arguments.addresses, len(addresses)))
    rows = []
    for number, street, city, postcode, point in sampled:
        for kind, query in variants(number, street, city, postcode, rng):
            rows.append((kind, query, point))
    for name, point in rng.sample(places, min(arguments.places, len(places))):
        rows.append(("place", name, point))
    for *_, point in rng.sample(addresses, min(arguments.addresses, len(addresses))):
        angle, distance = rng.uniform(0, 2 * math.pi), rng.uniform(0, 15)
        moved = offset(point, distance * math.cos(angle), distance * math.sin(angle))
        rows.append(("reverse", f"{moved[0]:.7f},{moved[1]:.7f}", moved))
    with open(arguments.out, "w", encoding="utf-8") as out:
        out.write("# kind\tquery\tlon\tlat: built by Tools/places-testset.py "
                  f"{arguments.map.split('/')[-1]} --addresses {arguments.addresses} --places {arguments.places} "
                  f"--seed {arguments.seed}\n")
        for kind, query, point in rows:
            out.write(f"{kind}\t{query}\t{point[0]:.7f}\t{point[1]:.7f}\n")
    counts = collections.Counter(kind for kind, *_ in rows)
    print(f"{len(rows)} queries: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())), file=sys.stderr)


if __name__ == "__main__":
    main()
