// The error messages both readers hand to C: a malloc'ed copy the caller
// releases with cosm_free_error().

#pragma once

#include <cstdlib>
#include <cstring>

inline char *cosm_copy_message(const char *message) {
    size_t length = std::strlen(message);
    char *copy = static_cast<char *>(std::malloc(length + 1));
    if (copy != nullptr) std::memcpy(copy, message, length + 1);
    return copy;
}
