// Reads the nodes and ways carrying one tag (amenity=taxi: taxi ranks) with
// libosmium, in two passes: the tagged nodes and ways first, then the
// locations of the tagged ways' nodes, so that memory stays proportional to
// what is wanted, not to the file.

#include "COsmium.h"
#include "ErrorMessage.hpp"
#include "WayNodeLocations.hpp"

#include <osmium/handler.hpp>
#include <osmium/io/any_input.hpp>
#include <osmium/osm/node.hpp>
#include <osmium/osm/way.hpp>
#include <osmium/visitor.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <list>
#include <string>
#include <vector>

namespace {

// Owns the array a cosm_places points into, and the texts its places name.
struct PlaceStorage {
    cosm_places view{};
    std::list<std::string> texts;
    std::vector<cosm_place> places;

    const char *keep(const char *text) {
        if (text == nullptr) return nullptr;
        texts.emplace_back(text);
        return texts.back().c_str();
    }
};

struct TaggedWay {
    int64_t id;
    std::vector<int64_t> refs;
    const char *name;
    const char *ref;
    const char *street;
};

class TaggedCollector : public osmium::handler::Handler {
public:
    TaggedCollector(PlaceStorage &storage, std::vector<TaggedWay> &ways, const char *key, const char *value)
        : storage_(storage), ways_(ways), key_(key), value_(value) {}

    void node(const osmium::Node &node) {
        if (!wanted(node.tags()) || !node.location().valid()) return;
        storage_.places.push_back({'n', node.id(), node.location().lon(), node.location().lat(),
                                   storage_.keep(node.tags().get_value_by_key("name")),
                                   storage_.keep(node.tags().get_value_by_key("ref")),
                                   storage_.keep(node.tags().get_value_by_key("addr:street"))});
    }

    void way(const osmium::Way &way) {
        if (!wanted(way.tags())) return;
        TaggedWay tagged{way.id(), {}, storage_.keep(way.tags().get_value_by_key("name")),
                         storage_.keep(way.tags().get_value_by_key("ref")),
                         storage_.keep(way.tags().get_value_by_key("addr:street"))};
        for (const osmium::NodeRef &ref : way.nodes()) tagged.refs.push_back(ref.ref());
        if (tagged.refs.size() > 1 && tagged.refs.front() == tagged.refs.back()) tagged.refs.pop_back();
        ways_.push_back(std::move(tagged));
    }

private:
    bool wanted(const osmium::TagList &tags) const {
        const char *found = tags.get_value_by_key(key_);
        return found != nullptr && std::strcmp(found, value_) == 0;
    }

    PlaceStorage &storage_;
    std::vector<TaggedWay> &ways_;
    const char *key_;
    const char *value_;
};

void read_places(const char *path, const char *key, const char *value, PlaceStorage &storage) {
    const osmium::io::File file{path};
    std::vector<TaggedWay> ways;
    {
        osmium::io::Reader reader{file, osmium::osm_entity_bits::node | osmium::osm_entity_bits::way};
        TaggedCollector collector{storage, ways, key, value};
        osmium::apply(reader, collector);
        reader.close();
    }
    if (ways.empty()) return;
    std::vector<int64_t> refs;
    for (const TaggedWay &way : ways) refs.insert(refs.end(), way.refs.begin(), way.refs.end());
    const WayNodeLocations found{file, std::move(refs)};
    for (const TaggedWay &way : ways) {
        double longitude = 0, latitude = 0;
        size_t located = 0;
        for (int64_t ref : way.refs) {
            const osmium::Location &location = found[ref];
            if (!location.valid()) continue;
            longitude += location.lon();
            latitude += location.lat();
            ++located;
        }
        if (located == 0) continue;
        storage.places.push_back({'w', way.id, longitude / located, latitude / located, way.name, way.ref, way.street});
    }
}


}  // namespace

extern "C" cosm_places *cosm_read_places(const char *path, const char *key, const char *value, char **error) {
    return cosm_read_guarded<PlaceStorage>(error, [&](PlaceStorage &storage) {
        read_places(path, key, value, storage);
        storage.view.count = storage.places.size();
        storage.view.places = storage.places.data();
    });
}

extern "C" void cosm_free_places(cosm_places *places) {
    if (places != nullptr) delete static_cast<PlaceStorage *>(places->owner);
}
