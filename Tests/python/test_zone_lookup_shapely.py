"""`mytaxi zones lookup` against shapely (GEOS through Python), on real zones.

100,000 random points over the NYC taxi zones' bounding box, plus every
vertex of every zone (the hardest points: on borders), must get the zone
that shapely's `covers` gives under the border rule (smallest LocationID
among the zones covering the point; empty when none).
Skips when ../shared/data is absent.
"""
import json
import os
import random
import subprocess
from pathlib import Path

import pytest

shapely = pytest.importorskip("shapely")
from shapely import STRtree, points  # noqa: E402
from shapely.geometry import shape  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
NYC = ROOT.parent / "shared" / "data" / "nyc" / "taxi_zones.geojson"


def mytaxi_binary():
    explicit = os.environ.get("MYTAXI_BIN")
    if explicit:
        return explicit
    bin_dir = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.strip()
    return str(Path(bin_dir) / "mytaxi")


def expected_zones(features, coordinates):
    geometries = [shape(f["geometry"]) for f in features]
    ids = [int(f["properties"]["LocationID"]) for f in features]
    tree = STRtree(geometries)
    point_index, zone_index = tree.query(points(coordinates), predicate="covered_by")
    best = [None] * len(coordinates)
    for p, z in zip(point_index, zone_index):
        if best[p] is None or ids[z] < best[p]:
            best[p] = ids[z]
    return ["" if b is None else str(b) for b in best]


@pytest.mark.skipif(not NYC.exists(), reason=f"shared data missing: {NYC} (NYC taxi zones)")
def test_lookup_matches_shapely_on_nyc_zones():
    features = json.loads(NYC.read_text())["features"]
    rng = random.Random(20261123)
    min_x, min_y, max_x, max_y = -74.255591, 40.496115, -73.700009, 40.915533
    coordinates = [(rng.uniform(min_x, max_x), rng.uniform(min_y, max_y)) for _ in range(100_000)]
    for feature in features:
        for polygon in shape(feature["geometry"]).geoms if feature["geometry"]["type"] == "MultiPolygon" \
                else [shape(feature["geometry"])]:
            coordinates.extend(polygon.exterior.coords[:50])
    expected = expected_zones(features, coordinates)
    text = "".join(f"{x!r},{y!r}\n" for x, y in coordinates)
    result = subprocess.run([mytaxi_binary(), "zones", "lookup", "--zones", str(NYC),
                             "--id-property", "LocationID", "--name-property", "zone"],
                            input=text, capture_output=True, text=True, check=True)
    answers = result.stdout.split("\n")[:-1]
    assert len(answers) == len(coordinates)
    mismatches = [(coordinates[i], answers[i], expected[i]) for i in range(len(coordinates))
                  if answers[i] != expected[i]]
    assert mismatches == [], f"{len(mismatches)} mismatches, first: {mismatches[:5]}"
    inside = sum(1 for e in expected[:100_000] if e)
    assert 30_000 < inside < 45_000, "about 36 % of the bounding box is inside a zone"
