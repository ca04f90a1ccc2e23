// detour_crowd.cpp - the crowd peer of `make bench-peers`: the scenarios
// crowd.lua writes (*.crowd), built as a navigation mesh from the same grid
// (each open navcell rasterized as two triangles, eroded by the agent radius)
// and run with the crowd of the packaged navigation library and its default
// obstacle avoidance. Prints one record line per scenario, as crowd.lua.
// See docs/peers.md ("Crowds").
//
// usage: detour_crowd FILE.crowd ...
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>
#include <algorithm>

#include <recastnavigation/Recast.h>
#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshBuilder.h>
#include <recastnavigation/DetourNavMeshQuery.h>
#include <recastnavigation/DetourCrowd.h>

static const float TICK = 0.1f; // seconds per tick: speed per tick = maxSpeed * TICK

struct Scenario {
    std::string name;
    int w, h, bound, n;
    float radius, speed; // world units, world units per tick
    std::vector<std::string> rows;
    std::vector<float> agents; // sx sy gx gy per agent
};

static bool read_scenario(const char *path, Scenario &sc)
{
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char name[128];
    if (fscanf(f, "crowd %127s %d %d %f %f %d %d", name, &sc.w, &sc.h, &sc.radius, &sc.speed,
               &sc.bound, &sc.n) != 7) {
        fclose(f);
        return false;
    }
    sc.name = name;
    std::vector<char> line(sc.w + 8);
    for (int y = 0; y < sc.h; y++) {
        if (fscanf(f, "%s", line.data()) != 1) { fclose(f); return false; }
        sc.rows.push_back(line.data());
    }
    sc.agents.resize(4 * sc.n);
    for (int i = 0; i < 4 * sc.n; i++)
        if (fscanf(f, "%f", &sc.agents[i]) != 1) { fclose(f); return false; }
    fclose(f);
    return true;
}

static double now_s()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Grid (x, y) is the mesh's (x, z); the floor is at height 0.
static dtNavMesh *build_navmesh(const Scenario &sc, double *build_ms)
{
    double t0 = now_s();
    const float cs = 0.1f, ch = 0.1f;
    std::vector<float> verts;
    std::vector<int> tris;
    for (int y = 0; y < sc.h; y++)
        for (int x = 0; x < sc.w; x++) {
            if (sc.rows[y][x] == '#') continue;
            int b = (int)verts.size() / 3;
            float vx[4] = {(float)x, (float)x + 1, (float)x + 1, (float)x};
            float vz[4] = {(float)y, (float)y, (float)y + 1, (float)y + 1};
            for (int k = 0; k < 4; k++) {
                verts.push_back(vx[k]);
                verts.push_back(0.0f);
                verts.push_back(vz[k]);
            }
            // wound so the normal points up (+y)
            int t[6] = {b, b + 2, b + 1, b, b + 3, b + 2};
            tris.insert(tris.end(), t, t + 6);
        }
    int nt = (int)tris.size() / 3;
    std::vector<unsigned char> areas(nt, RC_WALKABLE_AREA);
    rcContext ctx(false);
    float bmin[3] = {0, -1, 0}, bmax[3] = {(float)sc.w, 2, (float)sc.h};
    int gw = (int)(sc.w / cs + 0.5f), gh = (int)(sc.h / cs + 0.5f);
    int walkable_height = (int)ceilf(2.0f / ch), walkable_climb = (int)floorf(0.5f / ch);
    int walkable_radius = (int)ceilf(sc.radius / cs);
    rcHeightfield *hf = rcAllocHeightfield();
    rcCompactHeightfield *chf = rcAllocCompactHeightfield();
    rcContourSet *cset = rcAllocContourSet();
    rcPolyMesh *pm = rcAllocPolyMesh();
    dtNavMesh *nav = 0;
    unsigned char *data = 0;
    int size = 0;
    dtNavMeshCreateParams p;
    if (!rcCreateHeightfield(&ctx, *hf, gw, gh, bmin, bmax, cs, ch)) goto fail;
    if (!rcRasterizeTriangles(&ctx, verts.data(), (int)verts.size() / 3, tris.data(),
                              areas.data(), nt, *hf, 1))
        goto fail;
    if (!rcBuildCompactHeightfield(&ctx, walkable_height, walkable_climb, *hf, *chf)) goto fail;
    if (!rcErodeWalkableArea(&ctx, walkable_radius, *chf)) goto fail;
    if (!rcBuildDistanceField(&ctx, *chf)) goto fail;
    if (!rcBuildRegions(&ctx, *chf, 0, 0, 400)) goto fail;
    if (!rcBuildContours(&ctx, *chf, 1.0f, 0, *cset)) goto fail;
    if (!rcBuildPolyMesh(&ctx, *cset, 6, *pm)) goto fail;
    for (int i = 0; i < pm->npolys; i++) pm->flags[i] = 1;
    memset(&p, 0, sizeof p);
    p.verts = pm->verts;
    p.vertCount = pm->nverts;
    p.polys = pm->polys;
    p.polyAreas = pm->areas;
    p.polyFlags = pm->flags;
    p.polyCount = pm->npolys;
    p.nvp = pm->nvp;
    // the floor is flat: no detail mesh (the builder triangulates the polygons)
    p.walkableHeight = 2.0f;
    p.walkableRadius = sc.radius;
    p.walkableClimb = 0.5f;
    rcVcopy(p.bmin, pm->bmin);
    rcVcopy(p.bmax, pm->bmax);
    p.cs = cs;
    p.ch = ch;
    p.buildBvTree = true;
    if (!dtCreateNavMeshData(&p, &data, &size)) goto fail;
    nav = dtAllocNavMesh();
    if (!nav || dtStatusFailed(nav->init(data, size, DT_TILE_FREE_DATA))) {
        dtFreeNavMesh(nav);
        nav = 0;
        dtFree(data);
    }
fail:
    rcFreeHeightField(hf);
    rcFreeCompactHeightfield(chf);
    rcFreeContourSet(cset);
    rcFreePolyMesh(pm);
    *build_ms = (now_s() - t0) * 1000;
    return nav;
}

static int run(const Scenario &sc)
{
    double build_ms = 0;
    dtNavMesh *nav = build_navmesh(sc, &build_ms);
    if (!nav) {
        fprintf(stderr, "%s: the navigation mesh did not build\n", sc.name.c_str());
        return 1;
    }
    dtCrowd *crowd = dtAllocCrowd();
    if (!crowd->init(sc.n, sc.radius, nav)) {
        fprintf(stderr, "%s: the crowd did not initialise\n", sc.name.c_str());
        return 1;
    }
    const dtNavMeshQuery *q = crowd->getNavMeshQuery();
    const dtQueryFilter *filter = crowd->getFilter(0);
    const float *ext = crowd->getQueryExtents();
    dtCrowdAgentParams ap;
    memset(&ap, 0, sizeof ap);
    ap.radius = sc.radius;
    ap.height = 1.8f;
    ap.maxSpeed = sc.speed / TICK;
    ap.maxAcceleration = ap.maxSpeed / TICK; // full speed within one tick, as wayfinder's units
    ap.collisionQueryRange = sc.radius * 12.0f;
    ap.pathOptimizationRange = sc.radius * 30.0f;
    ap.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO |
                     DT_CROWD_OBSTACLE_AVOIDANCE | DT_CROWD_SEPARATION;
    ap.obstacleAvoidanceType = 0; // the crowd's default avoidance parameters
    ap.separationWeight = 2.0f;
    int n = sc.n, placed = 0;
    std::vector<int> idx(n, -1);
    for (int i = 0; i < n; i++) {
        const float *a = &sc.agents[4 * i];
        float pos[3] = {a[0], 0, a[1]}, goal[3] = {a[2], 0, a[3]}, np[3];
        dtPolyRef ref = 0;
        idx[i] = crowd->addAgent(pos, &ap);
        if (idx[i] < 0) continue;
        q->findNearestPoly(goal, ext, filter, &ref, np);
        if (ref && crowd->requestMoveTarget(idx[i], ref, np)) placed++;
    }
    // arrival: the first tick within one radius of the goal (the crowd slows
    // down near its target, neighbours push it about, and it never lands on
    // it exactly); CROWD_ARRIVE=f makes that f radii
    const char *fa = getenv("CROWD_ARRIVE");
    const float arrive = sc.radius * (fa && atof(fa) > 0 ? (float)atof(fa) : 1.0f);
    std::vector<int> arrived_at(n, 0), times;
    std::vector<float> xs(n), ys(n);
    double elapsed = 0, min_gap = 1e30;
    long long overlaps = 0;
    int arrived = 0, t = 0;
    const float lim = 2 * sc.radius;
    while (arrived < n && t < sc.bound) {
        t++;
        double t0 = now_s();
        crowd->update(TICK, 0);
        elapsed += now_s() - t0;
        for (int i = 0; i < n; i++) {
            const dtCrowdAgent *ag = idx[i] >= 0 ? crowd->getAgent(idx[i]) : 0;
            if (!ag || !ag->active) { xs[i] = ys[i] = -1e6f - 10 * i; continue; }
            xs[i] = ag->npos[0];
            ys[i] = ag->npos[2];
            const float *a = &sc.agents[4 * i];
            if (!arrived_at[i] && hypotf(xs[i] - a[2], ys[i] - a[3]) <= arrive) {
                arrived_at[i] = t;
                arrived++;
                times.push_back(t);
            }
        }
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                float dx = xs[i] - xs[j], dy = ys[i] - ys[j];
                if (fabsf(dx) > lim + 1 || fabsf(dy) > lim + 1) continue;
                double d = sqrt((double)dx * dx + (double)dy * dy) - lim;
                if (d < min_gap) min_gap = d;
                if (d < 0) overlaps++;
            }
    }
    auto at = [&](double frac) {
        size_t k = (size_t)ceil(frac * n);
        return k >= 1 && k <= times.size() ? std::to_string(times[k - 1]) : std::string("-");
    };
    printf("C\tdetour-crowd\t%s\t%d\t%d\t%s\t%s\t%s\t%d\t%d\t%.4f\t%lld\t%.6f\n", sc.name.c_str(),
           n, arrived, at(0.5).c_str(), at(0.9).c_str(),
           arrived == n ? std::to_string(times[n - 1]).c_str() : "-", sc.bound, t, min_gap,
           overlaps, elapsed * 1000 / ((double)t * n));
    fflush(stdout);
    if (placed < n)
        fprintf(stderr, "%s: %d of %d agents got no target on the mesh\n", sc.name.c_str(),
                n - placed, n);
    dtFreeCrowd(crowd);
    dtFreeNavMesh(nav);
    return 0;
}

int main(int argc, char **argv)
{
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        Scenario sc;
        if (!read_scenario(argv[i], sc)) {
            fprintf(stderr, "detour_crowd: cannot read %s\n", argv[i]);
            rc = 1;
            continue;
        }
        rc |= run(sc);
    }
    return rc;
}
