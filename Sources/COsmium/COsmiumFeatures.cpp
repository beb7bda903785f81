// Reads every node and way that a geocoder can name: those tagged `name` or
// `addr:housenumber`, with all their tags, a node at its location and a way
// with the locations of its nodes. Two passes, as for taxi ranks: the tagged
// objects first, then the locations of the tagged ways' nodes, so memory
// follows what is wanted, not the file.

#include "COsmium.h"
#include "ErrorMessage.hpp"
#include "WayNodeLocations.hpp"

#include <osmium/handler.hpp>
#include <osmium/io/any_input.hpp>
#include <osmium/osm/node.hpp>
#include <osmium/osm/way.hpp>
#include <osmium/visitor.hpp>

#include <algorithm>
#include <list>
#include <string>
#include <vector>

namespace {

// Owns the arrays a cosm_features points into, and the texts of its tags.
struct FeatureStorage {
    cosm_features view{};
    std::list<std::string> texts;
    std::vector<char> types;
    std::vector<int64_t> ids;
    std::vector<size_t> tag_start{0};
    std::vector<cosm_tag> tags;
    std::vector<size_t> point_start{0};
    std::vector<double> longitudes;
    std::vector<double> latitudes;

    const char *keep(const char *text) {
        texts.emplace_back(text);
        return texts.back().c_str();
    }

    void add(char type, int64_t id, const std::vector<cosm_tag> &own_tags) {
        types.push_back(type);
        ids.push_back(id);
        tags.insert(tags.end(), own_tags.begin(), own_tags.end());
        tag_start.push_back(tags.size());
    }

    void end_points() { point_start.push_back(longitudes.size()); }
};

struct NamedWay {
    int64_t id;
    std::vector<cosm_tag> tags;
    std::vector<int64_t> refs;
};

bool is_named(const osmium::TagList &tags) {
    return tags.has_key("name") || tags.has_key("addr:housenumber");
}

class NamedCollector : public osmium::handler::Handler {
public:
    NamedCollector(FeatureStorage &storage, std::vector<NamedWay> &ways) : storage_(storage), ways_(ways) {}

    void node(const osmium::Node &node) {
        if (!is_named(node.tags()) || !node.location().valid()) return;
        storage_.add('n', node.id(), copy(node.tags()));
        storage_.longitudes.push_back(node.location().lon());
        storage_.latitudes.push_back(node.location().lat());
        storage_.end_points();
    }

    void way(const osmium::Way &way) {
        if (!is_named(way.tags())) return;
        NamedWay named{way.id(), copy(way.tags()), {}};
        for (const osmium::NodeRef &ref : way.nodes()) named.refs.push_back(ref.ref());
        ways_.push_back(std::move(named));
    }

private:
    std::vector<cosm_tag> copy(const osmium::TagList &tags) {
        std::vector<cosm_tag> copied;
        for (const osmium::Tag &tag : tags) copied.push_back({storage_.keep(tag.key()), storage_.keep(tag.value())});
        return copied;
    }

    FeatureStorage &storage_;
    std::vector<NamedWay> &ways_;
};

void read_features(const char *path, FeatureStorage &storage) {
    const osmium::io::File file{path};
    std::vector<NamedWay> ways;
    {
        osmium::io::Reader reader{file, osmium::osm_entity_bits::node | osmium::osm_entity_bits::way};
        NamedCollector collector{storage, ways};
        osmium::apply(reader, collector);
        reader.close();
    }
    if (ways.empty()) return;
    std::vector<int64_t> refs;
    for (const NamedWay &way : ways) refs.insert(refs.end(), way.refs.begin(), way.refs.end());
    const WayNodeLocations found{file, std::move(refs)};
    for (const NamedWay &way : ways) {
        size_t before = storage.longitudes.size();
        for (int64_t ref : way.refs) {
            const osmium::Location &location = found[ref];
            if (!location.valid()) continue;
            storage.longitudes.push_back(location.lon());
            storage.latitudes.push_back(location.lat());
        }
        if (storage.longitudes.size() == before) continue;
        storage.add('w', way.id, way.tags);
        storage.end_points();
    }
}

}  // namespace

extern "C" cosm_features *cosm_read_features(const char *path, char **error) {
    return cosm_read_guarded<FeatureStorage>(error, [&](FeatureStorage &storage) {
        read_features(path, storage);
        storage.view.count = storage.ids.size();
        storage.view.types = storage.types.data();
        storage.view.ids = storage.ids.data();
        storage.view.tag_start = storage.tag_start.data();
        storage.view.tags = storage.tags.data();
        storage.view.point_start = storage.point_start.data();
        storage.view.longitudes = storage.longitudes.data();
        storage.view.latitudes = storage.latitudes.data();
    });
}

extern "C" void cosm_free_features(cosm_features *features) {
    if (features != nullptr) delete static_cast<FeatureStorage *>(features->owner);
}
