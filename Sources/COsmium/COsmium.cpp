// Reads highway ways, their nodes and turn-restriction relations with
// libosmium, in two passes: ways and relations first (collecting the node ids
// they need), then only those nodes' locations. Memory stays proportional to
// the road network, not to the whole file.

#include "COsmium.h"
#include "ErrorMessage.hpp"

#include <osmium/handler.hpp>
#include <osmium/io/any_input.hpp>
#include <osmium/osm/node.hpp>
#include <osmium/osm/relation.hpp>
#include <osmium/osm/way.hpp>
#include <osmium/visitor.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

struct TagOffsets {
    size_t key;
    size_t value;
};

struct MemberOffsets {
    char type;
    int64_t ref;
    size_t role;
};

// Owns every array a cosm_extract points into.
struct Storage {
    cosm_extract view{};
    std::string strings;

    std::vector<int64_t> node_ids;
    std::vector<double> node_longitudes;
    std::vector<double> node_latitudes;
    std::vector<size_t> node_highway_offsets;
    std::vector<const char *> node_highway;

    std::vector<int64_t> way_ids;
    std::vector<size_t> way_ref_start{0};
    std::vector<int64_t> way_refs;
    std::vector<int32_t> way_ref_node;
    std::vector<size_t> way_tag_start{0};
    std::vector<TagOffsets> way_tag_offsets;
    std::vector<cosm_tag> way_tags;

    std::vector<int64_t> relation_ids;
    std::vector<size_t> relation_member_start{0};
    std::vector<MemberOffsets> member_offsets;
    std::vector<cosm_member> relation_members;
    std::vector<size_t> relation_tag_start{0};
    std::vector<TagOffsets> relation_tag_offsets;
    std::vector<cosm_tag> relation_tags;

    size_t intern(const char *text) {
        size_t offset = strings.size();
        strings.append(text);
        strings.push_back('\0');
        return offset;
    }

    void add_tags(const osmium::TagList &tags, std::vector<TagOffsets> &offsets, std::vector<size_t> &start) {
        for (const osmium::Tag &tag : tags) {
            offsets.push_back({intern(tag.key()), intern(tag.value())});
        }
        start.push_back(offsets.size());
    }
};

class WayAndRelationCollector : public osmium::handler::Handler {
public:
    explicit WayAndRelationCollector(Storage &storage) : storage_(storage) {}

    void way(const osmium::Way &way) {
        if (!way.tags().has_key("highway")) return;
        storage_.way_ids.push_back(way.id());
        for (const osmium::NodeRef &ref : way.nodes()) storage_.way_refs.push_back(ref.ref());
        storage_.way_ref_start.push_back(storage_.way_refs.size());
        storage_.add_tags(way.tags(), storage_.way_tag_offsets, storage_.way_tag_start);
    }

    void relation(const osmium::Relation &relation) {
        const char *type = relation.tags().get_value_by_key("type");
        if (type == nullptr || std::strcmp(type, "restriction") != 0) return;
        storage_.relation_ids.push_back(relation.id());
        for (const osmium::RelationMember &member : relation.members()) {
            storage_.member_offsets.push_back(
                {osmium::item_type_to_char(member.type()), member.ref(), storage_.intern(member.role())});
        }
        storage_.relation_member_start.push_back(storage_.member_offsets.size());
        storage_.add_tags(relation.tags(), storage_.relation_tag_offsets, storage_.relation_tag_start);
    }

private:
    Storage &storage_;
};

// No `highway` tag on a node.
constexpr size_t no_tag = static_cast<size_t>(-1);

class NodeLocator : public osmium::handler::Handler {
public:
    NodeLocator(Storage &storage, const std::vector<int64_t> &wanted, std::vector<osmium::Location> &found,
                std::vector<size_t> &highway)
        : storage_(storage), wanted_(wanted), found_(found), highway_(highway) {}

    void node(const osmium::Node &node) {
        auto it = std::lower_bound(wanted_.begin(), wanted_.end(), node.id());
        if (it != wanted_.end() && *it == node.id() && node.location().valid()) {
            const size_t index = static_cast<size_t>(it - wanted_.begin());
            found_[index] = node.location();
            const char *value = node.tags().get_value_by_key("highway");
            if (value != nullptr) highway_[index] = storage_.intern(value);
        }
    }

private:
    Storage &storage_;
    const std::vector<int64_t> &wanted_;
    std::vector<osmium::Location> &found_;
    std::vector<size_t> &highway_;
};

void read_file(const char *path, Storage &storage) {
    const osmium::io::File file{path};
    {
        osmium::io::Reader reader{file, osmium::osm_entity_bits::way | osmium::osm_entity_bits::relation};
        WayAndRelationCollector collector{storage};
        osmium::apply(reader, collector);
        reader.close();
    }

    std::vector<int64_t> wanted = storage.way_refs;
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    std::vector<osmium::Location> found(wanted.size());
    std::vector<size_t> highway(wanted.size(), no_tag);
    {
        osmium::io::Reader reader{file, osmium::osm_entity_bits::node};
        NodeLocator locator{storage, wanted, found, highway};
        osmium::apply(reader, locator);
        reader.close();
    }

    std::vector<int32_t> node_index(wanted.size(), -1);
    for (size_t i = 0; i < wanted.size(); ++i) {
        if (!found[i].valid()) continue;
        node_index[i] = static_cast<int32_t>(storage.node_ids.size());
        storage.node_ids.push_back(wanted[i]);
        storage.node_longitudes.push_back(found[i].lon());
        storage.node_latitudes.push_back(found[i].lat());
        storage.node_highway_offsets.push_back(highway[i]);
    }
    storage.way_ref_node.reserve(storage.way_refs.size());
    for (int64_t ref : storage.way_refs) {
        auto it = std::lower_bound(wanted.begin(), wanted.end(), ref);
        int32_t index = node_index[static_cast<size_t>(it - wanted.begin())];
        if (index < 0) ++storage.view.missing_node_refs;
        storage.way_ref_node.push_back(index);
    }
}

// Points the C view at the finished arrays; the string arena no longer grows.
void publish(Storage &storage) {
    const char *base = storage.strings.data();
    for (const TagOffsets &tag : storage.way_tag_offsets) storage.way_tags.push_back({base + tag.key, base + tag.value});
    for (const TagOffsets &tag : storage.relation_tag_offsets) {
        storage.relation_tags.push_back({base + tag.key, base + tag.value});
    }
    for (const MemberOffsets &member : storage.member_offsets) {
        storage.relation_members.push_back({member.type, member.ref, base + member.role});
    }
    for (size_t offset : storage.node_highway_offsets) {
        storage.node_highway.push_back(offset == no_tag ? nullptr : base + offset);
    }
    cosm_extract &view = storage.view;
    view.node_count = storage.node_ids.size();
    view.node_ids = storage.node_ids.data();
    view.node_longitudes = storage.node_longitudes.data();
    view.node_latitudes = storage.node_latitudes.data();
    view.node_highway = storage.node_highway.data();
    view.way_count = storage.way_ids.size();
    view.way_ids = storage.way_ids.data();
    view.way_ref_start = storage.way_ref_start.data();
    view.way_ref_node = storage.way_ref_node.data();
    view.way_tag_start = storage.way_tag_start.data();
    view.way_tags = storage.way_tags.data();
    view.relation_count = storage.relation_ids.size();
    view.relation_ids = storage.relation_ids.data();
    view.relation_member_start = storage.relation_member_start.data();
    view.relation_members = storage.relation_members.data();
    view.relation_tag_start = storage.relation_tag_start.data();
    view.relation_tags = storage.relation_tags.data();
}


}  // namespace

extern "C" cosm_extract *cosm_read(const char *path, char **error) {
    return cosm_read_guarded<Storage>(error, [&](Storage &storage) {
        read_file(path, storage);
        publish(storage);
    });
}

extern "C" void cosm_free(cosm_extract *extract) {
    if (extract != nullptr) delete static_cast<Storage *>(extract->owner);
}

extern "C" void cosm_free_error(char *error) { std::free(error); }
