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
  /// Plain arrays of pointers, sized once: a second derivative
  /// differentiates this code too, and a std::vector's growth moves
  /// pointers as bytes.
  std::unique_ptr<State *[]> kept;
  std::size_t kept_count = 0;

  Revolve(State *adjoint) : adjoint(adjoint) {}
  Revolve(const Revolve &) = delete;
  Revolve &operator=(const Revolve &) = delete;
  ~Revolve() {
    for (std::size_t i = 0; i < kept_count; ++i)
      delete kept[i];
  }

  State &snapshot(int free, const State &from) {
    State *&slot = kept[std::size_t(free)];
    if constexpr (std::is_copy_assignable_v<State>) {
      if (slot) {
        *slot = from;
        return *slot;
      }
    }
    delete slot;
    slot = new State(from);
    return *slot;
  }

  void advance(State &state, int steps) {
    for (int s = 0; s < steps; ++s)
      step_once<Step>(state);
  }

  /// Reverses \p n steps starting from \p start (the state before them,
  /// used up here) keeping at most \p free more states at once. A loop
  /// over the parts still to reverse rather than recursion: a second
  /// derivative then sees every snapshot's allocation and release in one
  /// function.
  void reverse(State &start, int n, int free) {
    if (free < 0)
      free = 0;
    kept.reset(new State *[std::size_t(free) + 1]());
    kept_count = std::size_t(free) + 1;
    // Pending parts, last first: a part with f free snapshots pushes parts
    // with f, f - 1, ..., 1, so at most free + 1 wait at once.
    std::size_t capacity = std::size_t(free) + 2, depth = 0;
    std::unique_ptr<State *[]> starts(new State *[capacity]);
    std::unique_ptr<int[]> counts(new int[capacity]), frees(new int[capacity]);
    auto push = [&](State *from, int steps, int left) {
      if (depth == capacity)
        __builtin_trap(); // cannot happen (see above)
      starts[depth] = from;
      counts[depth] = steps;
      frees[depth++] = left;
    };
    push(&start, n, free);
    while (depth > 0) {
      --depth;
      State *from = starts[depth];
      int steps = counts[depth], left = frees[depth];
      while (steps > 1 && left > 0) {
        int repeats = 0;
        while (binomial_reach(left, repeats) < steps)
          ++repeats;
        // The left part (m steps) is reversed with `left` snapshots and
        // one re-run less, after the right part, which has one snapshot
        // less (the one at m).
        long long right = binomial_reach(left - 1, repeats);
        int m = steps - right >= 1 ? int(steps - right) : 1;
        State &mid = snapshot(left, *from);
        advance(mid, m);
        push(from, m, left);
        from = &mid;
        steps -= m;
        left -= 1;
      }
      if (steps == 1) {
        slope::grad<step_once<Step, State>>(slope::dup(*from, *adjoint));
      } else if (steps > 1) { // one re-run from the start per step
        for (int k = steps - 1; k >= 0; --k) {
          State copy = *from;
          advance(copy, k);
          slope::grad<step_once<Step, State>>(slope::dup(copy, *adjoint));
        }
      }
    }
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
  Revolve<Step, State>(shadow).reverse(kept->entry, n, free);
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
