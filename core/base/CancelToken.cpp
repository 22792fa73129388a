#include "base/CancelToken.h"

namespace ts {

CancelToken::CancelToken() : m_flag(std::make_shared<std::atomic<bool>>(false)) {}

} // namespace ts
