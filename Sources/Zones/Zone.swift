import GeoKit
