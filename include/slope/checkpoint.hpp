// Time loops in bounded memory: binomial checkpointing.
//
//   for (int s = 0; s < steps; ++s) step(domain);       // becomes
//   slope::checkpointed<step>(domain, steps);
//
// runs `step` on the state `steps` times (fewer when a step returning bool
// returns false: that step was the last). Outside a derivative it is that
// loop. In a reverse-mode derivative the loop is not taped: the augmented
// forward keeps a copy of the state at entry and the number of steps run,
// and the reverse sweep reverses the steps one at a time with binomial
// checkpointing (Griewank's Revolve schedule): it keeps at most `k` states
// at once (slope::snapshots(k); by default about log2 of the step count),
// re-runs steps from them, and differentiates one step at a time, so
// memory is (k + 2) states plus one step's tape, and each step is run at
// most r + 1 more times for the least r with C(k + r, k) >= steps.
//
// The step must be re-executable from its state alone: it may read and
// write the state (the object and memory it owns or points to) and read
// what nothing changes during the loop; it must not keep anything between
// calls outside the state (statics, globals, I/O, random number
// generators), and the state must be copyable (its copy is a checkpoint).
#ifndef SLOPE_CHECKPOINT_HPP
#define SLOPE_CHECKPOINT_HPP

#include <slope/slope.hpp>

#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace slope {

/// How many states a checkpointed loop may keep at once besides its entry
/// state; 0 (the default) chooses about log2 of the step count.
struct snapshots {
  int count = 0;
  constexpr explicit snapshots(int count = 0) : count(count) {}
};

namespace detail {

/// One step; false when the step says it was the last.
template <auto Step, class State> bool step_continues(State &state) {
  if constexpr (std::is_void_v<decltype(Step(state))>) {
    Step(state);
    return true;
  } else {
    return static_cast<bool>(Step(state));
  }
}

/// One step, its result dropped: what the reverse sweep differentiates.
template <auto Step, class State> void step_once(State &state) {
  (void)Step(state);
}

/// One step whose result goes to \p more (forward mode differentiates it).
template <auto Step, class State> void step_into(State &state, bool *more) {
  *more = step_continues<Step>(state);
}

/// Runs at most \p steps steps; returns how many ran.
template <auto Step, class State> int run_steps(State &state, int steps) {
  int ran = 0;
  while (ran < steps) {
    ++ran;
    if (!step_continues<Step>(state))
      break;
  }
  return ran;
}

/// C(s + t, s), the most steps s snapshots reverse with t re-runs each;
/// saturates well above any int.
inline long long binomial_reach(int s, int t) {
  long long reach = 1;
  for (int i = 1; i <= s; ++i) {
    reach = reach * (t + i) / i;
    if (reach > (1LL << 40))
      return 1LL << 40;
  }
  return reach;
}

/// The default snapshot count for \p steps steps: bit width of steps.
inline int default_snapshots(int steps) {
  int count = 0;
  for (unsigned left = static_cast<unsigned>(steps); left; left >>= 1)
    ++count;
  return count > 0 ? count : 1;
}

/// What the augmented forward keeps for the reverse sweep.
template <class State> struct CheckpointTape {
  State entry;
  int steps;
};

/// The reverse sweep of a checkpointed loop: adjoints flow through
/// *adjoint, from after the last step to before the first.
template <auto Step, class State> struct Revolve {
  State *adjoint;
  /// Snapshots by the count of free ones left where each is taken: those
  /// alive at once hold distinct counts. Assigning into a kept snapshot
  /// reuses its memory (a std::vector keeps its buffer), where a new copy
  /// of a large state would take fresh pages from the kernel every time.
  std::vector<std::unique_ptr<State>> kept;

  State &snapshot(int free, const State &from) {
    if (kept.size() <= std::size_t(free))
      kept.resize(std::size_t(free) + 1);
    std::unique_ptr<State> &slot = kept[std::size_t(free)];
    if constexpr (std::is_copy_assignable_v<State>) {
      if (slot) {
        *slot = from;
        return *slot;
      }
    }
    slot = std::make_unique<State>(from);
    return *slot;
  }

  void advance(State &state, int steps) {
    for (int s = 0; s < steps; ++s)
      step_once<Step>(state);
  }

  /// Reverses \p n steps starting from \p start (the state before them,
  /// used up here) keeping at most \p free more states at once.
  void reverse(State &start, int n, int free) {
    if (n <= 0)
      return;
    if (n == 1) {
      slope::grad<step_once<Step, State>>(slope::dup(start, *adjoint));
      return;
    }
    if (free <= 0) { // one re-run from the start per step (never chosen)
      for (int k = n - 1; k >= 0; --k) {
        State from = start;
        advance(from, k);
        slope::grad<step_once<Step, State>>(slope::dup(from, *adjoint));
      }
      return;
    }
    int repeats = 0;
    while (binomial_reach(free, repeats) < n)
      ++repeats;
    // The left part (m steps) is reversed with `free` snapshots and one
    // re-run less, the right part with one snapshot less (the one at m).
    long long right = binomial_reach(free - 1, repeats);
    int m = n - right >= 1 ? int(n - right) : 1;
    State &mid = snapshot(free, start);
    advance(mid, m);
    reverse(mid, n - m, free - 1);
    reverse(start, m, free);
  }
};

template <auto Step, class State>
__attribute__((noinline)) void checkpointed_loop(State *state, int steps,
                                                 int count) {
  (void)count;
  run_steps<Step>(*state, steps);
}

template <auto Step, class State>
void checkpointed_forward(State *state, State *tangent, int steps, int count) {
  (void)count;
  if (!tangent) {
    run_steps<Step>(*state, steps);
    return;
  }
  bool more = true;
  for (int ran = 0; ran < steps && more; ++ran)
    slope::derivative<step_into<Step, State>>(slope::dup(*state, *tangent),
                                              &more);
}

template <auto Step, class State>
void *checkpointed_augmented(State *state, State *shadow, int steps,
                             int count) {
  (void)count;
  if (!shadow) {
    run_steps<Step>(*state, steps);
    return nullptr;
  }
  auto *tape = new CheckpointTape<State>{*state, 0};
  tape->steps = run_steps<Step>(*state, steps);
  return tape;
}

template <auto Step, class State>
void checkpointed_reverse(State *state, State *shadow, int steps, int count,
                          void *tape) {
  (void)state;
  (void)steps;
  if (!tape)
    return;
  std::unique_ptr<CheckpointTape<State>> kept(
      static_cast<CheckpointTape<State> *>(tape));
  int n = kept->steps;
  int free = count > 0 ? count : default_snapshots(n);
  Revolve<Step, State>{shadow}.reverse(kept->entry, n, free);
}

/// The rules of checkpointed_loop<Step, State> (CustomRules.h reads them).
template <auto Step, class State> struct CheckpointRules {
  __attribute__((
      used,
      section(".slope.rules"))) static inline const void *const rule[4] = {
      reinterpret_cast<const void *>(&checkpointed_loop<Step, State>),
      reinterpret_cast<const void *>(&checkpointed_forward<Step, State>),
      reinterpret_cast<const void *>(&checkpointed_augmented<Step, State>),
      reinterpret_cast<const void *>(&checkpointed_reverse<Step, State>)};
};

} // namespace detail

/// Runs Step(state) \p steps times (until a step returning bool returns
/// false); differentiated with binomial checkpointing (see above).
template <auto Step, class State>
inline void checkpointed(State &state, int steps,
                         snapshots keep = snapshots()) {
  (void)&detail::CheckpointRules<Step, State>::rule;
  detail::checkpointed_loop<Step, State>(&state, steps, keep.count);
}

} // namespace slope

#endif
