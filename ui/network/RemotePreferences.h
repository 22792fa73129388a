#pragma once

#include "remote/RemoteSettings.h"

#include <QStringList>

#include <cstdint>

namespace ts::ui {

// The window's settings for models on servers, on top of RemoteSettings::fromEnvironment(): the
// cache bound and the hosts the token goes to (QSettings), the token itself (its own owner-only
// file, RemoteSettings::storedTokenPath(), never the settings file that holds recent files).
// HF_TOKEN and TENSORSCOPE_TOKEN_HOSTS, when set, win, as they do for huggingface_hub.
namespace RemotePreferences {

std::uint64_t cacheBytes();
void setCacheBytes(std::uint64_t bytes);
QStringList tokenHosts();
void setTokenHosts(const QStringList& hosts);

// What a RemoteSession runs with now.
remote::RemoteSettings settings();
// Hands settings() to the running session, if there is one.
void apply();

} // namespace RemotePreferences

} // namespace ts::ui
