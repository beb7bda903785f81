// What the readers share at the C boundary: no C++ exception crosses it.
// An error becomes a malloc'ed message the caller releases with
// cosm_free_error().

#pragma once

#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <utility>

inline char *cosm_copy_message(const char *message) {
    size_t length = std::strlen(message);
    char *copy = static_cast<char *>(std::malloc(length + 1));
    if (copy != nullptr) std::memcpy(copy, message, length + 1);
    return copy;
}

// Makes a `Storage`, fills it with `fill` and returns its `view`, whose
// `owner` is the storage (released by the matching cosm_free function);
// NULL and *error set when anything throws.
template <typename Storage, typename Fill>
auto *cosm_read_guarded(char **error, Fill fill) {
    *error = nullptr;
    try {
        auto storage = std::make_unique<Storage>();
        fill(*storage);
        storage->view.owner = storage.get();
        return &storage.release()->view;
    } catch (const std::exception &exception) {
        *error = cosm_copy_message(exception.what());
    } catch (...) {
        *error = cosm_copy_message("unknown error while reading the OSM file");
    }
    return static_cast<decltype(&std::declval<Storage &>().view)>(nullptr);
}
