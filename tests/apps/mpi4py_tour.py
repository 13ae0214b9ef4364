"""A tour of MPI through mpi4py (Debian's python3-mpi4py, built for Open MPI), run unchanged
on zmpi's libmpi.so.40 by zmpirun: point to point with objects and buffers, collectives,
communicators and topologies, intercommunicators, generalized requests, derived datatypes,
one-sided windows, MPI-IO, nonblocking collectives and error handling. Any rank count from 2; rank 0 prints "mpi4py tour: ok"."""
import os
import sys
import tempfile

import numpy as np
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
assert size >= 2, "run with at least 2 ranks"
assert MPI.Get_library_version().startswith("zmpi"), MPI.Get_library_version()


def check(condition, what):
    if not condition:
        sys.stderr.write(f"rank {rank}: FAILED: {what}\n")
        comm.Abort(1)


# --- point to point: pickled objects, buffers, nonblocking, probe -------------------------
right, left = (rank + 1) % size, (rank - 1) % size
got = comm.sendrecv({"from": rank, "items": list(range(rank))}, dest=right, source=left)
check(got == {"from": left, "items": list(range(left))}, "sendrecv of a dict")

out = np.arange(1000, dtype="d") + rank
into = np.empty(1000, dtype="d")
requests = [comm.Irecv(into, source=left, tag=7), comm.Isend(out, dest=right, tag=7)]
MPI.Request.Waitall(requests)
check(np.array_equal(into, np.arange(1000, dtype="d") + left), "Isend/Irecv of 1000 doubles")

big = np.full(3 * 1024 * 1024 // 8 + 5, float(rank))  # above every eager limit
bigin = np.empty_like(big)
comm.Sendrecv(big, dest=right, sendtag=8, recvbuf=bigin, source=left, recvtag=8)
check(bigin[0] == left and bigin[-1] == left, "Sendrecv of 3 MiB")

if rank == 0:
    for peer in range(1, size):
        status = MPI.Status()
        comm.Probe(source=MPI.ANY_SOURCE, tag=9, status=status)
        count = status.Get_count(MPI.INT)
        data = np.empty(count, dtype="i")
        comm.Recv(data, source=status.Get_source(), tag=9)
        check(count == status.Get_source() + 1 and (data == status.Get_source()).all(), "Probe + Get_count")
else:
    comm.Send(np.full(rank + 1, rank, dtype="i"), dest=0, tag=9)

# --- collectives ---------------------------------------------------------------------------
check(comm.allreduce(rank) == size * (size - 1) // 2, "allreduce of an int")
check(comm.bcast("hello" if rank == 0 else None, root=0) == "hello", "bcast of a str")
check(comm.allgather(rank * rank) == [r * r for r in range(size)], "allgather of objects")
check(comm.alltoall([rank * 100 + r for r in range(size)]) == [r * 100 + rank for r in range(size)],
      "alltoall of objects")
check(comm.gather(rank, root=size - 1) == (list(range(size)) if rank == size - 1 else None), "gather")
check(comm.scatter([r + 10 for r in range(size)] if rank == 0 else None, root=0) == rank + 10, "scatter")

vec = np.arange(4096, dtype="i8") * (rank + 1)
total = np.empty_like(vec)
comm.Allreduce(vec, total, op=MPI.SUM)
check(np.array_equal(total, np.arange(4096, dtype="i8") * (size * (size + 1) // 2)), "Allreduce SUM of int64")
best = comm.allreduce((rank * 7 % size, rank), op=MPI.MAXLOC)
check(best[0] == max(r * 7 % size for r in range(size)), "allreduce MAXLOC")

pair = np.array([(float(rank % 3), rank)], dtype=np.dtype([("value", "d"), ("rank", "i")], align=True))
minloc = np.empty_like(pair)
comm.Allreduce([pair, MPI.DOUBLE_INT], [minloc, MPI.DOUBLE_INT], op=MPI.MINLOC)
check(minloc["value"][0] == 0.0 and minloc["rank"][0] == 0, "Allreduce MINLOC on DOUBLE_INT")

counts = [r + 1 for r in range(size)]
displs = [sum(counts[:r]) for r in range(size)]
gathered = np.empty(sum(counts), dtype="d") if rank == 0 else None
comm.Gatherv(np.full(rank + 1, float(rank)), [gathered, counts, displs, MPI.DOUBLE] if rank == 0 else None, root=0)
if rank == 0:
    check(all((gathered[displs[r]:displs[r] + counts[r]] == r).all() for r in range(size)), "Gatherv")

blocks = np.arange(size * 3, dtype="i") + 1000 * rank
swapped = np.empty_like(blocks)
comm.Alltoall(blocks, swapped)
check(all((swapped[3 * r:3 * r + 3] == np.arange(3 * rank, 3 * rank + 3) + 1000 * r).all() for r in range(size)),
      "Alltoall of buffers")

mine = np.empty(2, dtype="d")
comm.Reduce_scatter_block(np.ones(2 * size) * rank, mine, op=MPI.SUM)
check((mine == size * (size - 1) / 2).all(), "Reduce_scatter_block")
check(comm.scan(1) == rank + 1 and comm.exscan(1) == (rank if rank else None), "scan and exscan")

partial = np.empty(1, dtype="i")
request = comm.Iallreduce(np.array([rank], dtype="i"), partial, op=MPI.SUM)
barrier = comm.Ibarrier()
MPI.Request.Waitall([request, barrier])
check(partial[0] == size * (size - 1) // 2, "Iallreduce + Ibarrier")

# --- communicators, groups, topologies -----------------------------------------------------
halves = comm.Split(color=rank % 2, key=-rank)
check(halves.Get_size() == (size + 1 - rank % 2) // 2, "Split size")
check(halves.allreduce(1) == halves.Get_size(), "collective on a split communicator")
check(MPI.Group.Translate_ranks(halves.Get_group(), [0], comm.Get_group())[0] ==
      max(r for r in range(size) if r % 2 == rank % 2), "Split key order, Translate_ranks")
twin = comm.Dup()
check(MPI.Comm.Compare(comm, twin) == MPI.CONGRUENT, "Dup is congruent")
twin.Set_name("twin")
check(twin.Get_name() == "twin", "Set_name/Get_name")
cart = comm.Create_cart(dims=[size], periods=[True], reorder=False)
source, dest = cart.Shift(0, 1)
check((source, dest) == (left, right), "Cart Shift")
neighbours = cart.neighbor_allgather(rank)
check(neighbours == [left, right], "neighbor_allgather on a ring")
for c in (cart, twin, halves):
    c.Free()

# --- derived datatypes ---------------------------------------------------------------------
matrix = np.arange(size * 4 * 4, dtype="d").reshape(size * 4, 4)
column = MPI.DOUBLE.Create_vector(size * 4, 1, 4).Commit()
if rank == 0:
    comm.Send([matrix, 1, column], dest=1, tag=11)
elif rank == 1:
    got = np.empty(size * 4, dtype="d")
    comm.Recv(got, source=0, tag=11)
    check(np.array_equal(got, matrix[:, 0]), "a vector type (one column)")
column.Free()
check(MPI.DOUBLE.Create_contiguous(3).Commit().Get_size() == 24, "Create_contiguous size")

# --- one-sided -----------------------------------------------------------------------------
window_memory = np.zeros(size, dtype="i8")
win = MPI.Win.Create(window_memory, disp_unit=8, comm=comm)
win.Fence()
win.Put(np.array([rank], dtype="i8"), target_rank=right, target=rank)
win.Fence()
check(window_memory[left] == left, "Put in a fence epoch")
win.Lock(0, MPI.LOCK_SHARED)
win.Accumulate(np.array([1], dtype="i8"), 0, target=0, op=MPI.SUM)
win.Unlock(0)
comm.Barrier()
if rank == 0:
    win.Lock(0, MPI.LOCK_EXCLUSIVE)
    check(window_memory[0] == size, "Accumulate under shared locks")
    win.Unlock(0)
win.Free()

shared = MPI.Win.Allocate_shared(8 if rank == 0 else 0, disp_unit=8, comm=comm)
buffer, unit = shared.Shared_query(0)
check(unit == 8, "Shared_query disp_unit")
array = np.ndarray(buffer=buffer, dtype="i8", shape=(1,))
shared.Fence()
if rank == size - 1:
    array[0] = 4242
shared.Fence()
check(array[0] == 4242, "a store into a shared window, read directly")
shared.Free()

# --- MPI-IO --------------------------------------------------------------------------------
directory = comm.bcast(tempfile.mkdtemp(prefix="zmpi-mpi4py-") if rank == 0 else None, root=0)
path = os.path.join(directory, "tour.dat")
handle = MPI.File.Open(comm, path, MPI.MODE_CREATE | MPI.MODE_RDWR)
handle.Write_at_all(rank * 16, np.full(2, rank, dtype="i8"))
handle.Sync()
comm.Barrier()
back = np.empty(2, dtype="i8")
handle.Read_at_all(left * 16, back)
check((back == left).all(), "Write_at_all / Read_at_all")
check(handle.Get_size() == 16 * size, "File Get_size")
handle.Close()
comm.Barrier()
if rank == 0:
    os.remove(path)
    os.rmdir(directory)

# --- intercommunicators ---------------------------------------------------------------------
# Even world ranks against odd ones (uneven at odd sizes): create, queries, objects and
# buffers across, collectives with MPI.ROOT, merge, split; a generalized request.
even = rank % 2 == 0
half = comm.Split(0 if even else 1, rank)
inter = half.Create_intercomm(0, comm, 1 if even else 0, tag=12)
check(inter.Is_inter() and inter.Get_remote_size() == (size // 2 if even else (size + 1) // 2),
      "intercommunicator sizes")
theirs = [r for r in range(size) if (r % 2 == 0) != even]
if half.Get_rank() == 0:
    check(inter.sendrecv(rank, dest=0, source=0) == theirs[0], "an object between the leaders")
check(inter.allgather(rank) == theirs, "allgather across the groups")
check(inter.allreduce(rank, op=MPI.SUM) == sum(theirs), "allreduce across the groups")
buf = np.zeros(3, dtype="i")
if even:
    buf[:] = [7, 8, 9] if rank == 0 else 0
    inter.Bcast(buf, root=MPI.ROOT if rank == 0 else MPI.PROC_NULL)
else:
    inter.Bcast(buf, root=0)
    check(list(buf) == [7, 8, 9], "bcast from the other group's root")
gathered = inter.gather(rank, root=(MPI.ROOT if rank == 1 else MPI.PROC_NULL) if not even else 0)
check(gathered == ([r for r in range(size) if r % 2 == 0] if rank == 1 else None), "gather to a root in the other group")
merged = inter.Merge(high=not even)
check(merged.Get_size() == size and merged.Get_rank() == (len(theirs) + half.Get_rank() if not even else half.Get_rank()),
      "merge puts the high group second")
part = inter.Split(half.Get_rank() % 2, 0)
check(part == MPI.COMM_NULL or part.Is_inter(), "split of an intercommunicator")
for c in (part, merged, inter, half):
    if c != MPI.COMM_NULL:
        c.Free()

state = {"queried": 0}


def query(status, *args, **kwargs):
    state["queried"] += 1
    status.Set_source(3)
    status.Set_tag(4)


def free(*args, **kwargs):
    state["freed"] = True


def cancel(completed, *args, **kwargs):
    pass


greq = MPI.Grequest.Start(query, free, cancel)
check(not greq.Test(), "a generalized request before completion")
greq.Complete()
status = MPI.Status()
greq.Wait(status)
check(state["queried"] >= 1 and status.Get_tag() == 4 and status.Get_source() == 3, "generalized request status")
check(state.get("freed"), "generalized request freed")

# --- errors --------------------------------------------------------------------------------
comm.Set_errhandler(MPI.ERRORS_RETURN)
try:
    comm.Send(np.zeros(1), dest=size + 5)
    check(False, "a send to a rank beyond the communicator must fail")
except MPI.Exception as error:
    check(error.Get_error_class() == MPI.ERR_RANK, f"error class {error.Get_error_class()} for a bad rank")
comm.Set_errhandler(MPI.ERRORS_ARE_FATAL)

comm.Barrier()
if rank == 0:
    print("mpi4py tour: ok", flush=True)
