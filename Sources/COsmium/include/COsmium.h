#ifndef COSMIUM_H
#define COSMIUM_H

/*
 * A small C view of an OpenStreetMap file, read with libosmium.
 *
 * cosm_read() returns every way tagged `highway`, the locations (and `highway`
 * tag) of the nodes those ways reference, and every relation tagged
 * `type=restriction`. No routing policy lives here: which ways are routable,
 * and how, is decided in Swift (Routing/Import). All arrays stay valid until cosm_free().
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One key/value pair; both are NUL-terminated UTF-8 owned by the extract. */
typedef struct {
    const char *key;
    const char *value;
} cosm_tag;

/* One relation member: type 'n' (node), 'w' (way) or 'r' (relation). */
typedef struct {
    char type;
    int64_t ref;
    const char *role;
} cosm_member;

typedef struct {
    /* Referenced nodes that were found, sorted by OSM id: ids and WGS84 degrees. */
    size_t node_count;
    const int64_t *node_ids;
    const double *node_longitudes;
    const double *node_latitudes;
    /* Each node's `highway` tag value (traffic_signals, stop, ...), or NULL. */
    const char *const *node_highway;

    /* Highway ways in file order. Way i has references
     * way_ref_start[i] ..< way_ref_start[i + 1] into way_ref_node (the index
     * into the node arrays, or -1 when the file lacks that node) and tags
     * way_tag_start[i] ..< way_tag_start[i + 1] into way_tags. */
    size_t way_count;
    const int64_t *way_ids;
    const size_t *way_ref_start;
    const int32_t *way_ref_node;
    const size_t *way_tag_start;
    const cosm_tag *way_tags;

    /* Relations tagged type=restriction, laid out like the ways. */
    size_t relation_count;
    const int64_t *relation_ids;
    const size_t *relation_member_start;
    const cosm_member *relation_members;
    const size_t *relation_tag_start;
    const cosm_tag *relation_tags;

    /* Way node references whose node is not in the file. */
    size_t missing_node_refs;

    /* Private: the C++ object owning the arrays. */
    void *owner;
} cosm_extract;

/* Reads `path` (.osm.pbf, .osm, .osm.bz2, ...; the format follows the file name).
 * Returns NULL on failure and sets *error to a message the caller frees with
 * cosm_free_error(). */
cosm_extract *cosm_read(const char *path, char **error);

/* Releases an extract returned by cosm_read(). */
void cosm_free(cosm_extract *extract);

/* Releases an error message set by cosm_read(). */
void cosm_free_error(char *error);

/* One OSM object carrying a wanted tag: a node at its location, or a way at
 * the mean of its nodes' locations (an area drawn as a closed way counts its
 * shared first and last node once). `type` is 'n' or 'w'; `name`, `ref` and
 * `street` are its tags `name`, `ref` and `addr:street`, or NULL. */
typedef struct {
    char type;
    int64_t id;
    double longitude;
    double latitude;
    const char *name;
    const char *ref;
    const char *street;
} cosm_place;

typedef struct {
    /* Nodes first, then ways, each in file order. */
    size_t count;
    const cosm_place *places;

    /* Private: the C++ object owning the array. */
    void *owner;
} cosm_places;

/* Reads the nodes and ways of `path` tagged `key`=`value` (amenity=taxi for
 * taxi ranks). A way none of whose nodes is in the file is left out. Returns
 * NULL on failure and sets *error as cosm_read() does. */
cosm_places *cosm_read_places(const char *path, const char *key, const char *value, char **error);

/* Releases places returned by cosm_read_places(). */
void cosm_free_places(cosm_places *places);

/* Every node and way tagged `name` or `addr:housenumber`, with all its tags:
 * what a geocoder can name (addresses, streets, places). Feature i has type
 * types[i] ('n' or 'w'), OSM id ids[i], tags tag_start[i] ..< tag_start[i + 1]
 * and points point_start[i] ..< point_start[i + 1] (one for a node; a way's
 * nodes found in the file, in order). Nodes first, then ways, each in file
 * order; a way none of whose nodes is in the file is left out. */
typedef struct {
    size_t count;
    const char *types;
    const int64_t *ids;
    const size_t *tag_start;
    const cosm_tag *tags;
    const size_t *point_start;
    const double *longitudes;
    const double *latitudes;

    /* Private: the C++ object owning the arrays. */
    void *owner;
} cosm_features;

/* Reads the named features of `path`. Returns NULL on failure and sets
 * *error as cosm_read() does. */
cosm_features *cosm_read_features(const char *path, char **error);

/* Releases features returned by cosm_read_features(). */
void cosm_free_features(cosm_features *features);

#ifdef __cplusplus
}
#endif

#endif
