// A small Lagrangian shock-hydrodynamics proxy (in the manner of LULESH,
// in 2-D): a Domain struct of std::vector fields on an unstructured quad
// mesh, nodal forces gathered from and scattered to elements through a
// connectivity array, an equation of state evaluated region by region
// through per-region element lists, an artificial viscosity that switches
// on under compression, symmetry planes given as node lists, and an
// adaptive time step from a Courant reduction. The objective is the total
// energy after some steps; its gradient is taken with respect to the
// whole initial Domain.
#ifndef SLOPE_BENCH_HYDRO_H
#define SLOPE_BENCH_HYDRO_H

#include <slope/checkpoint.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace hydro {

struct Domain {
  // Nodes.
  std::vector<double> x, y, xd, yd, fx, fy, nodalMass;
  // Elements.
  std::vector<double> e, p, q, area, elemMass, ss;
  std::vector<int> nodelist; // four nodes per element, counter-clockwise
  // Regions: the elements of region r are regElems[regStart[r]..[r+1]).
  std::vector<int> regStart, regElems;
  std::vector<double> regGamma;
  // Symmetry planes: nodes whose x (symmX) or y (symmY) velocity is zero.
  std::vector<int> symmX, symmY;
  // dtMax bounds the step: without hourglass control a quad mesh tangles
  // once the step grows to the Courant limit of the expanded blast cells
  // (48² x 1000 steps went to negative areas and NaN by step 300).
  double dt, cfl, qcoef, dtGrowth, dtMax;
};

/// Twice the signed area of element k and its node coordinates.
inline double gatherCorners(const Domain &d, int k, double (&cx)[4],
                            double (&cy)[4]) {
  double twice = 0;
  for (int a = 0; a < 4; ++a) {
    int n = d.nodelist[4 * k + a];
    cx[a] = d.x[n];
    cy[a] = d.y[n];
  }
  for (int a = 0; a < 4; ++a) {
    int b = (a + 1) % 4;
    twice += cx[a] * cy[b] - cx[b] * cy[a];
  }
  return twice;
}

/// Pressure and viscosity push each element's nodes along the gradient
/// of its area.
inline void nodalForces(Domain &d) {
  int nodes = int(d.x.size()), elems = int(d.e.size());
  for (int n = 0; n < nodes; ++n) {
    d.fx[n] = 0;
    d.fy[n] = 0;
  }
  for (int k = 0; k < elems; ++k) {
    double cx[4], cy[4];
    gatherCorners(d, k, cx, cy);
    double sig = d.p[k] + d.q[k];
    for (int a = 0; a < 4; ++a) {
      int next = (a + 1) % 4, prev = (a + 3) % 4;
      int n = d.nodelist[4 * k + a];
      d.fx[n] += sig * 0.5 * (cy[next] - cy[prev]);
      d.fy[n] += sig * 0.5 * (cx[prev] - cx[next]);
    }
  }
}

inline void moveNodes(Domain &d) {
  int nodes = int(d.x.size());
  for (int n = 0; n < nodes; ++n) {
    d.xd[n] += d.dt * d.fx[n] / d.nodalMass[n];
    d.yd[n] += d.dt * d.fy[n] / d.nodalMass[n];
  }
  for (int i = 0; i < int(d.symmX.size()); ++i)
    d.xd[d.symmX[i]] = 0;
  for (int i = 0; i < int(d.symmY.size()); ++i)
    d.yd[d.symmY[i]] = 0;
  for (int n = 0; n < nodes; ++n) {
    d.x[n] += d.dt * d.xd[n];
    d.y[n] += d.dt * d.yd[n];
  }
}

/// New areas, the work of pressure and viscosity on the internal energy,
/// and the viscosity of the next step (only where the element shrinks).
inline void updateElements(Domain &d) {
  int elems = int(d.e.size());
  for (int k = 0; k < elems; ++k) {
    double cx[4], cy[4];
    double area = 0.5 * gatherCorners(d, k, cx, cy);
    double dArea = area - d.area[k];
    d.e[k] -= (d.p[k] + d.q[k]) * dArea / d.elemMass[k];
    d.area[k] = area;
    double rho = d.elemMass[k] / area;
    if (dArea < 0) {
      double rate = dArea / (d.dt * area);
      d.q[k] = d.qcoef * rho * area * rate * rate;
    } else {
      d.q[k] = 0;
    }
  }
}

/// The ideal-gas equation of state, region by region (each region has its
/// own ratio of specific heats), and the sound speed.
inline void equationOfState(Domain &d) {
  int regions = int(d.regGamma.size());
  for (int r = 0; r < regions; ++r) {
    double gamma = d.regGamma[r];
    for (int i = d.regStart[r]; i < d.regStart[r + 1]; ++i) {
      int k = d.regElems[i];
      double rho = d.elemMass[k] / d.area[k];
      double p = (gamma - 1) * rho * d.e[k];
      if (p < 0)
        p = 0;
      d.p[k] = p;
      d.ss[k] = std::sqrt(gamma * p / rho + 1e-12);
    }
  }
}

/// The Courant limit over all elements, growing at most by dtGrowth and
/// at most to dtMax.
inline void timeStep(Domain &d) {
  int elems = int(d.e.size());
  double limit = std::min(d.dtGrowth * d.dt, d.dtMax);
  for (int k = 0; k < elems; ++k) {
    double courant = d.cfl * std::sqrt(d.area[k]) / d.ss[k];
    limit = std::min(limit, courant);
  }
  d.dt = limit;
}

inline void step(Domain &d) {
  nodalForces(d);
  moveNodes(d);
  updateElements(d);
  equationOfState(d);
  timeStep(d);
}

inline double totalEnergy(const Domain &d) {
  double energy = 0;
  for (int k = 0; k < int(d.e.size()); ++k)
    energy += d.elemMass[k] * d.e[k];
  for (int n = 0; n < int(d.x.size()); ++n)
    energy += 0.5 * d.nodalMass[n] * (d.xd[n] * d.xd[n] + d.yd[n] * d.yd[n]);
  return energy;
}

/// The function differentiated: total energy after \p steps steps.
inline double simulate(Domain &d, int steps) {
  for (int s = 0; s < steps; ++s)
    step(d);
  return totalEnergy(d);
}

/// The same with its time loop checkpointed (slope/checkpoint.hpp): the
/// gradient keeps a few states instead of a tape of every step.
inline double simulateCheckpointed(Domain &d, int steps) {
  slope::checkpointed<step>(d, steps);
  return totalEnergy(d);
}

/// A Sedov-like blast on an nx x nx mesh of the unit square: unit density,
/// a little energy everywhere and much in the corner element, a gentle
/// swirl, and \p regions regions interleaved over the elements.
inline Domain makeDomain(int nx, int regions) {
  Domain d;
  int side = nx + 1, nodes = side * side, elems = nx * nx;
  double h = 1.0 / nx;
  for (int j = 0; j < side; ++j)
    for (int i = 0; i < side; ++i) {
      d.x.push_back(i * h);
      d.y.push_back(j * h);
      d.xd.push_back(0.01 * std::sin(3.0 * j * h));
      d.yd.push_back(-0.01 * std::sin(2.0 * i * h));
      if (i == 0)
        d.symmX.push_back(j * side + i);
      if (j == 0)
        d.symmY.push_back(j * side + i);
    }
  d.fx.assign(nodes, 0);
  d.fy.assign(nodes, 0);
  d.nodalMass.assign(nodes, 0);
  std::vector<int> regionOf(elems);
  for (int j = 0; j < nx; ++j)
    for (int i = 0; i < nx; ++i) {
      int k = j * nx + i, n0 = j * side + i;
      for (int n : {n0, n0 + 1, n0 + side + 1, n0 + side})
        d.nodelist.push_back(n);
      regionOf[k] = (7 * i + 3 * j) % regions;
    }
  d.e.assign(elems, 1e-3);
  d.e[0] = 10.0;
  d.p.assign(elems, 0);
  d.q.assign(elems, 0);
  d.ss.assign(elems, 0);
  d.area.assign(elems, h * h);
  d.elemMass.assign(elems, h * h);
  for (int k = 0; k < elems; ++k)
    for (int a = 0; a < 4; ++a)
      d.nodalMass[d.nodelist[4 * k + a]] += 0.25 * d.elemMass[k];
  for (int r = 0; r < regions; ++r) {
    d.regStart.push_back(int(d.regElems.size()));
    d.regGamma.push_back(1.4 + 0.1 * r);
    for (int k = 0; k < elems; ++k)
      if (regionOf[k] == r)
        d.regElems.push_back(k);
  }
  d.regStart.push_back(int(d.regElems.size()));
  d.cfl = 0.3;
  d.qcoef = 1.0;
  d.dtGrowth = 1.1;
  d.dtMax = 2e-4;
  d.dt = 1e-4;
  equationOfState(d);
  return d;
}

/// The floating-point fields of \p d (D is Domain or const Domain).
template <class D> auto vectorFields(D &d) {
  return std::array{&d.x,    &d.y,         &d.xd, &d.yd,      &d.fx,
                    &d.fy,   &d.nodalMass, &d.e,  &d.p,       &d.q,
                    &d.area, &d.elemMass,  &d.ss, &d.regGamma};
}
template <class D> auto scalarFields(D &d) {
  return std::array{&d.dt, &d.cfl, &d.qcoef, &d.dtGrowth, &d.dtMax};
}

/// A shadow for \p d: its shape, every floating-point value zero.
inline Domain zeroShadow(const Domain &d) {
  Domain s = d;
  for (std::vector<double> *v : vectorFields(s))
    std::fill(v->begin(), v->end(), 0.0);
  for (double *v : scalarFields(s))
    *v = 0;
  return s;
}

/// Every floating-point value of \p d, in one order.
inline std::vector<double> flatten(const Domain &d) {
  std::vector<double> out;
  for (const std::vector<double> *v : vectorFields(d))
    out.insert(out.end(), v->begin(), v->end());
  for (const double *v : scalarFields(d))
    out.push_back(*v);
  return out;
}

/// \p d with every floating-point value moved by \p scale times the same
/// position of \p direction (a Domain of the same shape).
inline Domain displaced(const Domain &d, const Domain &direction,
                        double scale) {
  Domain out = d;
  auto to = vectorFields(out);
  auto by = vectorFields(direction);
  for (size_t f = 0; f < to.size(); ++f)
    for (size_t i = 0; i < to[f]->size(); ++i)
      (*to[f])[i] += scale * (*by[f])[i];
  auto toScalar = scalarFields(out);
  auto byScalar = scalarFields(direction);
  for (size_t f = 0; f < toScalar.size(); ++f)
    *toScalar[f] += scale * *byScalar[f];
  return out;
}

} // namespace hydro

#endif
