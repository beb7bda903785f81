// What the tagged-object readers share: the second pass over a file that
// finds the locations of the nodes their ways reference, so that a first
// pass keeps only the ways wanted and memory follows them, not the file.

#pragma once

#include <osmium/handler.hpp>
#include <osmium/io/any_input.hpp>
#include <osmium/osm/node.hpp>
#include <osmium/visitor.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

// The locations of a set of nodes, looked up by id.
class WayNodeLocations {
public:
    // Reads `file`'s nodes once, keeping the locations of `refs` (any order, repeats allowed).
    WayNodeLocations(const osmium::io::File &file, std::vector<int64_t> refs) : ids_(std::move(refs)) {
        std::sort(ids_.begin(), ids_.end());
        ids_.erase(std::unique(ids_.begin(), ids_.end()), ids_.end());
        locations_.resize(ids_.size());
        osmium::io::Reader reader{file, osmium::osm_entity_bits::node};
        Collector collector{ids_, locations_};
        osmium::apply(reader, collector);
        reader.close();
    }

    // The location of node `id`; invalid when the file lacks it.
    const osmium::Location &operator[](int64_t id) const {
        return locations_[static_cast<size_t>(std::lower_bound(ids_.begin(), ids_.end(), id) - ids_.begin())];
    }

private:
    class Collector : public osmium::handler::Handler {
    public:
        Collector(const std::vector<int64_t> &ids, std::vector<osmium::Location> &locations) : ids_(ids), locations_(locations) {}

        void node(const osmium::Node &node) {
            auto it = std::lower_bound(ids_.begin(), ids_.end(), node.id());
            if (it != ids_.end() && *it == node.id()) locations_[static_cast<size_t>(it - ids_.begin())] = node.location();
        }

    private:
        const std::vector<int64_t> &ids_;
        std::vector<osmium::Location> &locations_;
    };

    std::vector<int64_t> ids_;
    std::vector<osmium::Location> locations_;
};
