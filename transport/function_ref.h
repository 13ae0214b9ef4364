#pragma once
// A non-owning reference to a callable: two words, one indirect call, nothing to build.
// For callbacks on the message path that are called and forgotten before the call that
// received them returns (a poll's delivery, a spin's condition): a std::function there
// is constructed on every poll of a spin loop. The referenced callable must outlive the
// FunctionRef -- a lambda passed as a call's argument does.
#include <memory>
#include <type_traits>
#include <utility>

namespace zmpi::transport {

template <typename Signature>
class FunctionRef;

template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
 public:
  // Implicit, like std::function, from any callable but a FunctionRef (which copies).
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> &&
                                                    std::is_invocable_r_v<R, F&, Args...>>>
  FunctionRef(F&& callable) noexcept  // NOLINT(google-explicit-constructor)
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(callable)))),
        call_([](void* object, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(object))(std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

}  // namespace zmpi::transport
