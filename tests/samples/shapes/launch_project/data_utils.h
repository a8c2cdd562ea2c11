/* Host file helpers of the kernel-launch project (main.cpp only). */
#pragma once
#include <cstdint>
#include <cstdio>

bool ReadFile(const char *path, size_t want, void *buf, size_t cap);
bool WriteFile(const char *path, const void *buf, size_t len);
