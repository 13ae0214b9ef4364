! A tour of the MPI API from Fortran through mpif.h or, with -DZMPI_USE_MODULE, `use mpi`:
! point to point (MPI_ANY_SOURCE, statuses), nonblocking calls and MPI_Waitall, every
! collective (MPI_IN_PLACE too), derived datatypes, communicators, a Cartesian topology,
! one-sided calls, MPI-IO, error handlers, user ops, attributes, and Fortran handles that
! are freed and reused. Built by Debian's mpif90.openmpi, run through zmpirun at 2 and 4
! ranks; every rank checks its results, rank 0 prints "PASS" when all ranks agree.
program suite
#ifdef ZMPI_USE_MODULE
  use mpi
#endif
  implicit none
#ifndef ZMPI_USE_MODULE
  include 'mpif.h'
#endif
  integer :: ierr, rank, nprocs, failures, total
  integer :: handler_calls
  common /handler_state/ handler_calls

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  failures = 0
  handler_calls = 0

  call test_p2p()
  call test_nonblocking()
  call test_collectives()
  call test_datatypes()
  call test_communicators()
  call test_cartesian()
  call test_one_sided()
  call test_io()
  call test_errors()
  call test_user_op()
  call test_attributes()
  call test_mpi1_and_queries()
  call test_more()
  call test_grequest()

  call MPI_Allreduce(failures, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (total == 0) then
      print '(a,i0,a)', 'fortran suite on ', nprocs, ' ranks: PASS'
    else
      print '(a,i0,a)', 'fortran suite: ', total, ' checks FAILED'
    end if
  end if
  call MPI_Finalize(ierr)
  if (total /= 0) stop 1

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      failures = failures + 1
      print '(a,i0,a,a)', 'rank ', rank, ' FAILED: ', what
    end if
  end subroutine check

  subroutine test_p2p()
    integer :: value, i, count, status(MPI_STATUS_SIZE), seen, detached_size
    integer :: attached(1024)
    double precision :: d(3)
    if (rank == 0) then
      seen = 0
      do i = 1, nprocs - 1
        call MPI_Recv(value, 1, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
        call check(ierr == MPI_SUCCESS, 'recv any source')
        call check(value == 100 + status(MPI_SOURCE), 'value from its source')
        call check(status(MPI_TAG) == 7 + status(MPI_SOURCE), 'status tag')
        call MPI_Get_count(status, MPI_INTEGER, count, ierr)
        call check(count == 1, 'get_count')
        seen = seen + status(MPI_SOURCE)
      end do
      call check(seen == nprocs * (nprocs - 1) / 2, 'every source once')
    else
      call MPI_Send(100 + rank, 1, MPI_INTEGER, 0, 7 + rank, MPI_COMM_WORLD, ierr)
    end if
    ! A ring of sendrecv, status ignored (after the barrier: not for rank 0's MPI_ANY_TAG).
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    d = rank
    call MPI_Sendrecv_replace(d, 3, MPI_DOUBLE_PRECISION, mod(rank + 1, nprocs), 1, &
                              mod(rank + nprocs - 1, nprocs), 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call check(all(d == mod(rank + nprocs - 1, nprocs)), 'sendrecv_replace ring')
    ! Buffered sends through an attached buffer, detached afterwards.
    call MPI_Buffer_attach(attached, 4 * size(attached), ierr)
    call MPI_Bsend(rank, 1, MPI_INTEGER, mod(rank + 1, nprocs), 21, MPI_COMM_WORLD, ierr)
    call MPI_Recv(value, 1, MPI_INTEGER, mod(rank + nprocs - 1, nprocs), 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call check(value == mod(rank + nprocs - 1, nprocs), 'bsend')
    call MPI_Buffer_detach(attached, detached_size, ierr)
    call check(detached_size == 4 * size(attached), 'buffer_detach size')
  end subroutine test_p2p

  subroutine test_nonblocking()
    integer :: requests(2 * nprocs), statuses(MPI_STATUS_SIZE, 2 * nprocs)
    integer :: inbox(nprocs), outbox(nprocs), i, n, index
    logical :: flag
    n = 0
    do i = 0, nprocs - 1
      outbox(i + 1) = rank * 1000 + i
      n = n + 1
      call MPI_Irecv(inbox(i + 1), 1, MPI_INTEGER, i, 3, MPI_COMM_WORLD, requests(n), ierr)
      n = n + 1
      call MPI_Isend(outbox(i + 1), 1, MPI_INTEGER, i, 3, MPI_COMM_WORLD, requests(n), ierr)
    end do
    call MPI_Waitall(n, requests, statuses, ierr)
    call check(ierr == MPI_SUCCESS, 'waitall')
    call check(all(requests(1:n) == MPI_REQUEST_NULL), 'waitall nulls the requests')
    do i = 0, nprocs - 1
      call check(inbox(i + 1) == i * 1000 + rank, 'nonblocking payload')
      call check(statuses(MPI_SOURCE, 2 * i + 1) == i, 'waitall status source')
    end do
    ! Waitany and Test over a pair, statuses ignored.
    call MPI_Irecv(inbox(1), 1, MPI_INTEGER, mod(rank + 1, nprocs), 4, MPI_COMM_WORLD, requests(1), ierr)
    call MPI_Isend(rank, 1, MPI_INTEGER, mod(rank + nprocs - 1, nprocs), 4, MPI_COMM_WORLD, requests(2), ierr)
    call MPI_Waitany(2, requests, index, MPI_STATUS_IGNORE, ierr)
    call check(index == 1 .or. index == 2, 'waitany index is 1-based')
    call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE, ierr)
    call check(inbox(1) == mod(rank + 1, nprocs), 'waitany payload')
    call MPI_Test(requests(1), flag, MPI_STATUS_IGNORE, ierr)
    call check(flag, 'test of a null request is true')
  end subroutine test_nonblocking

  subroutine test_collectives()
    integer :: i, v, root
    integer :: vals(nprocs), counts(nprocs), displs(nprocs), many(2 * nprocs), back(nprocs * nprocs)
    double precision :: x(4), y(4)
    root = nprocs - 1
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call check(ierr == MPI_SUCCESS, 'barrier')
    v = -1
    if (rank == root) v = 42
    call MPI_Bcast(v, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    call check(v == 42, 'bcast')
    x = rank + 1
    call MPI_Reduce(x, y, 4, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    if (rank == 0) call check(all(y == nprocs * (nprocs + 1) / 2), 'reduce')
    call MPI_Allreduce(x, y, 4, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
    call check(all(y == nprocs), 'allreduce max')
    call MPI_Allreduce(MPI_IN_PLACE, x, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(all(x == nprocs * (nprocs + 1) / 2), 'allreduce in place')
    v = rank
    if (rank == 0) then
      call MPI_Reduce(MPI_IN_PLACE, v, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
      call check(v == nprocs * (nprocs - 1) / 2, 'reduce in place')
    else
      call MPI_Reduce(v, i, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    end if
    call MPI_Gather(rank, 1, MPI_INTEGER, vals, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    if (rank == root) call check(all(vals == [(i, i = 0, nprocs - 1)]), 'gather')
    call MPI_Allgather(rank * 2, 1, MPI_INTEGER, vals, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call check(all(vals == [(2 * i, i = 0, nprocs - 1)]), 'allgather')
    vals = -1
    vals(rank + 1) = rank * 3
    call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, vals, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call check(all(vals == [(3 * i, i = 0, nprocs - 1)]), 'allgather in place')
    ! Rank i contributes i+1 elements (gatherv, allgatherv, scatterv).
    counts = [(i + 1, i = 0, nprocs - 1)]
    displs(1) = 0
    do i = 2, nprocs
      displs(i) = displs(i - 1) + counts(i - 1)
    end do
    many = rank
    back = -1
    call MPI_Allgatherv(many, rank + 1, MPI_INTEGER, back, counts, displs, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call check(back(displs(nprocs) + 1) == nprocs - 1 .and. back(1) == 0, 'allgatherv')
    call MPI_Gatherv(many, rank + 1, MPI_INTEGER, back, counts, displs, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    if (rank == 0) call check(back(displs(nprocs) + counts(nprocs)) == nprocs - 1, 'gatherv')
    back = [(i, i = 1, nprocs * nprocs)]
    call MPI_Scatter(back, 2, MPI_INTEGER, many, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    call check(many(1) == 2 * rank + 1 .and. many(2) == 2 * rank + 2, 'scatter')
    many = -1
    call MPI_Scatterv(back, counts, displs, MPI_INTEGER, many, rank + 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    call check(many(1) == displs(rank + 1) + 1 .and. many(rank + 1) == displs(rank + 1) + rank + 1, 'scatterv')
    do i = 1, nprocs
      many(i) = rank * 100 + i - 1
    end do
    call MPI_Alltoall(many, 1, MPI_INTEGER, back, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call check(all(back(1:nprocs) == [(i * 100 + rank, i = 0, nprocs - 1)]), 'alltoall')
    counts = 1
    displs = [(i, i = 0, nprocs - 1)]
    call MPI_Alltoallv(many, counts, displs, MPI_INTEGER, back, counts, displs, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call check(all(back(1:nprocs) == [(i * 100 + rank, i = 0, nprocs - 1)]), 'alltoallv')
    many(1:nprocs) = 1
    call MPI_Reduce_scatter_block(many, v, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(v == nprocs, 'reduce_scatter_block')
    call MPI_Reduce_scatter(many, v, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(v == nprocs, 'reduce_scatter')
    call MPI_Scan(rank + 1, v, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(v == (rank + 1) * (rank + 2) / 2, 'scan')
    call MPI_Exscan(rank + 1, v, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rank > 0) call check(v == rank * (rank + 1) / 2, 'exscan')
  end subroutine test_collectives

  subroutine test_datatypes()
    integer :: column, pair, blocks(2), types(2), size, i, status(MPI_STATUS_SIZE), count
    integer(kind=MPI_ADDRESS_KIND) :: displs(2), lb, extent, base, address
    double precision :: matrix(3, 4), got(3)
    type pair_t
      integer :: tag
      double precision :: value
    end type pair_t
    type(pair_t) :: p(2), q(2)
    ! A row of a column-major matrix: 4 doubles, stride 3.
    call MPI_Type_vector(4, 1, 3, MPI_DOUBLE_PRECISION, column, ierr)
    call MPI_Type_commit(column, ierr)
    call MPI_Type_size(column, size, ierr)
    call check(size == 32, 'vector size')
    matrix = reshape([(dble(i), i = 1, 12)], [3, 4])
    if (rank == 0) then
      call MPI_Send(matrix(2, 1), 1, column, nprocs - 1, 11, MPI_COMM_WORLD, ierr)
    end if
    if (rank == nprocs - 1) then
      call MPI_Recv(matrix, 4, MPI_DOUBLE_PRECISION, 0, 11, MPI_COMM_WORLD, status, ierr)
      call check(all(matrix(:, 1) == [2d0, 5d0, 8d0]) .and. matrix(1, 2) == 11d0, 'vector row received')
    end if
    call MPI_Type_free(column, ierr)
    call check(column == MPI_DATATYPE_NULL, 'type_free nulls the handle')
    ! A struct of an integer and a double, two of them.
    call MPI_Get_address(p(1)%tag, base, ierr)
    call MPI_Get_address(p(1)%value, address, ierr)
    blocks = 1
    displs = [0_MPI_ADDRESS_KIND, address - base]
    types = [MPI_INTEGER, MPI_DOUBLE_PRECISION]
    call MPI_Type_create_struct(2, blocks, displs, types, pair, ierr)
    call MPI_Type_get_extent(pair, lb, extent, ierr)
    call MPI_Type_create_resized(pair, 0_MPI_ADDRESS_KIND, int(storage_size(p(1)) / 8, MPI_ADDRESS_KIND), &
                                 column, ierr)
    call MPI_Type_free(pair, ierr)
    call MPI_Type_commit(column, ierr)
    p = [pair_t(rank, rank * 0.5d0), pair_t(-rank, 1.5d0)]
    call MPI_Bcast(p, 2, column, 0, MPI_COMM_WORLD, ierr)
    call check(p(1)%tag == 0 .and. p(2)%value == 1.5d0, 'struct bcast')
    q = p
    call MPI_Sendrecv(p, 2, column, mod(rank + 1, nprocs), 12, q, 2, column, &
                      mod(rank + nprocs - 1, nprocs), 12, MPI_COMM_WORLD, status, ierr)
    call MPI_Get_count(status, column, count, ierr)
    call check(count == 2, 'struct count')
    call MPI_Type_free(column, ierr)
    call MPI_Type_contiguous(3, MPI_DOUBLE_PRECISION, column, ierr)
    call MPI_Type_commit(column, ierr)
    got = rank
    call MPI_Bcast(got, 1, column, 0, MPI_COMM_WORLD, ierr)
    call check(all(got == 0), 'contiguous bcast')
    call MPI_Type_free(column, ierr)
  end subroutine test_datatypes

  subroutine test_communicators()
    integer :: half, dup, group, sub_group, sub, result, i, size, first, last, sub_rank
    character(len=MPI_MAX_OBJECT_NAME) :: name
    integer :: name_length
    call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), -rank, half, ierr)
    call MPI_Comm_size(half, size, ierr)
    call check(size == (nprocs + 1 - mod(rank, 2)) / 2, 'split size')
    call MPI_Comm_rank(half, sub_rank, ierr)
    call check(sub_rank == size - 1 - rank / 2, 'split ordered by key')
    call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
    call MPI_Comm_compare(dup, MPI_COMM_WORLD, result, ierr)
    call check(result == MPI_CONGRUENT, 'dup is congruent')
    call MPI_Comm_set_name(dup, 'fortran dup   ', ierr)
    call MPI_Comm_get_name(dup, name, name_length, ierr)
    call check(name == 'fortran dup' .and. name_length == 11, 'comm name')
    call MPI_Comm_group(MPI_COMM_WORLD, group, ierr)
    call MPI_Group_incl(group, 1, [0], sub_group, ierr)
    call MPI_Comm_create(MPI_COMM_WORLD, sub_group, sub, ierr)
    if (rank == 0) then
      call check(sub /= MPI_COMM_NULL, 'comm_create member')
      call MPI_Comm_free(sub, ierr)
    else
      call check(sub == MPI_COMM_NULL, 'comm_create non-member')
    end if
    call MPI_Group_free(sub_group, ierr)
    call MPI_Group_free(group, ierr)
    call check(group == MPI_GROUP_NULL, 'group_free nulls the handle')
    call MPI_Comm_free(half, ierr)
    call check(half == MPI_COMM_NULL, 'comm_free nulls the handle')
    ! Freed handles give their index back: a loop of dup/free reuses it.
    call MPI_Comm_dup(dup, sub, ierr)
    first = sub
    call MPI_Comm_free(sub, ierr)
    do i = 1, 50
      call MPI_Comm_dup(dup, sub, ierr)
      last = sub
      call MPI_Comm_free(sub, ierr)
    end do
    call check(last == first, 'a freed communicator index is reused')
    call MPI_Comm_free(dup, ierr)
  end subroutine test_communicators

  subroutine test_cartesian()
    integer :: dims(2), cart, coords(2), source, dest, cart_rank, row, row_size
    integer :: graph, indegree, outdegree
    logical :: periods(2), remain(2), got_periods(2), weighted
    dims = 0
    call MPI_Dims_create(nprocs, 2, dims, ierr)
    call check(dims(1) * dims(2) == nprocs, 'dims_create')
    periods = [.true., .false.]
    call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
    call MPI_Cart_coords(cart, rank, 2, coords, ierr)
    call MPI_Cart_rank(cart, coords, cart_rank, ierr)
    call check(cart_rank == rank, 'cart rank of coords')
    call MPI_Cart_get(cart, 2, dims, got_periods, coords, ierr)
    call check(got_periods(1) .and. .not. got_periods(2), 'cart_get periods')
    call MPI_Cart_shift(cart, 0, 1, source, dest, ierr)
    call MPI_Cart_rank(cart, [mod(coords(1) + 1, dims(1)), coords(2)], cart_rank, ierr)
    call check(dest == cart_rank, 'cart_shift periodic')
    call MPI_Cart_shift(cart, 1, 1, source, dest, ierr)
    if (coords(2) == dims(2) - 1) call check(dest == MPI_PROC_NULL, 'cart_shift at the edge')
    remain = [.false., .true.]
    call MPI_Cart_sub(cart, remain, row, ierr)
    call MPI_Comm_size(row, row_size, ierr)
    call check(row_size == dims(2), 'cart_sub')
    call MPI_Comm_free(row, ierr)
    call MPI_Comm_free(cart, ierr)
    ! A ring as a distributed graph, MPI_UNWEIGHTED: each rank hears its left neighbour.
    call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, [mod(rank + nprocs - 1, nprocs)], MPI_UNWEIGHTED, &
                                        1, [mod(rank + 1, nprocs)], MPI_UNWEIGHTED, MPI_INFO_NULL, .false., &
                                        graph, ierr)
    call MPI_Dist_graph_neighbors_count(graph, indegree, outdegree, weighted, ierr)
    call check(indegree == 1 .and. outdegree == 1 .and. .not. weighted, 'dist graph, MPI_UNWEIGHTED')
    call MPI_Comm_free(graph, ierr)
  end subroutine test_cartesian

  subroutine test_one_sided()
    integer :: win, i, target, handler, calls_before
    external :: count_error
    integer :: window(nprocs), got
    integer(kind=MPI_ADDRESS_KIND) :: bytes, disp
    window = -1
    bytes = 4 * nprocs
    call MPI_Win_create(window, bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
    call check(ierr == MPI_SUCCESS, 'win_create')
    call MPI_Win_fence(0, win, ierr)
    do i = 0, nprocs - 1
      disp = rank
      call MPI_Put(rank + 10, 1, MPI_INTEGER, i, disp, 1, MPI_INTEGER, win, ierr)
    end do
    call MPI_Win_fence(0, win, ierr)
    call check(all(window == [(i + 10, i = 0, nprocs - 1)]), 'put with fences')
    target = mod(rank + 1, nprocs)
    disp = 0
    call MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win, ierr)
    call MPI_Get(got, 1, MPI_INTEGER, target, disp, 1, MPI_INTEGER, win, ierr)
    call MPI_Win_unlock(target, win, ierr)
    call check(got == 10, 'get under a lock')
    call MPI_Win_fence(0, win, ierr)
    call MPI_Accumulate(1, 1, MPI_INTEGER, 0, disp, 1, MPI_INTEGER, MPI_SUM, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    if (rank == 0) call check(window(1) == 10 + nprocs, 'accumulate')
    ! A window error handler written in Fortran: a put to a rank that does not exist.
    call MPI_Win_create_errhandler(count_error, handler, ierr)
    call MPI_Win_set_errhandler(win, handler, ierr)
    calls_before = handler_calls
    call MPI_Win_fence(0, win, ierr)
    call MPI_Put(rank, 1, MPI_INTEGER, nprocs + 3, disp, 1, MPI_INTEGER, win, ierr)
    call check(ierr /= MPI_SUCCESS .and. handler_calls == calls_before + 1, 'the Fortran window handler ran')
    call MPI_Win_fence(0, win, ierr)
    call MPI_Errhandler_free(handler, ierr)
    call MPI_Win_free(win, ierr)
    call check(win == MPI_WIN_NULL, 'win_free nulls the handle')
  end subroutine test_one_sided

  subroutine test_io()
    integer :: fh, status(MPI_STATUS_SIZE), values(4), back(4), count
    integer(kind=MPI_OFFSET_KIND) :: offset, size
    character(len=64) :: filename
    write (filename, '(a,i0,a)') 'zmpi_fortran_io_', nprocs, '.dat'
    call MPI_File_open(MPI_COMM_WORLD, trim(filename), MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
    call check(ierr == MPI_SUCCESS, 'file_open')
    values = [rank, rank * 2, rank * 3, rank * 4]
    offset = rank * 16
    call MPI_File_write_at(fh, offset, values, 4, MPI_INTEGER, status, ierr)
    call MPI_Get_count(status, MPI_INTEGER, count, ierr)
    call check(count == 4, 'write_at count')
    call MPI_File_sync(fh, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call MPI_File_sync(fh, ierr)
    call MPI_File_get_size(fh, size, ierr)
    call check(size == 16 * nprocs, 'file size')
    offset = mod(rank + 1, nprocs) * 16
    call MPI_File_read_at_all(fh, offset, back, 4, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
    call check(back(4) == 4 * mod(rank + 1, nprocs), 'read_at_all')
    call MPI_File_close(fh, ierr)
    call check(fh == MPI_FILE_NULL, 'file_close nulls the handle')
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 0) call MPI_File_delete(trim(filename), MPI_INFO_NULL, ierr)
  end subroutine test_io

  subroutine test_errors()
    integer :: error_class, length, handler, bad_comm, calls_before
    character(len=MPI_MAX_ERROR_STRING) :: text
    external :: count_error
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    call MPI_Send(rank, 1, MPI_INTEGER, nprocs + 5, 0, MPI_COMM_WORLD, ierr)
    call check(ierr /= MPI_SUCCESS, 'send to a bad rank fails')
    call MPI_Error_class(ierr, error_class, ierr)
    call check(error_class == MPI_ERR_RANK, 'its class is MPI_ERR_RANK')
    call MPI_Error_string(MPI_ERR_RANK, text, length, ierr)
    call check(length > 0 .and. len_trim(text) == length, 'error_string')
    ! An index that names no communicator: the C call sees MPI_COMM_NULL.
    bad_comm = 12345
    call MPI_Barrier(bad_comm, ierr)
    call MPI_Error_class(ierr, error_class, ierr)
    call check(error_class == MPI_ERR_COMM, 'invalid handle index gives MPI_ERR_COMM')
    call MPI_Send(rank, -1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, ierr)
    call MPI_Error_class(ierr, error_class, ierr)
    call check(error_class == MPI_ERR_COUNT, 'negative count gives MPI_ERR_COUNT')
    ! A handler written in Fortran.
    call MPI_Comm_create_errhandler(count_error, handler, ierr)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler, ierr)
    calls_before = handler_calls
    call MPI_Send(rank, 1, MPI_INTEGER, -7, 0, MPI_COMM_WORLD, ierr)
    call check(handler_calls == calls_before + 1, 'the Fortran error handler ran')
    call MPI_Errhandler_free(handler, ierr)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)
  end subroutine test_errors

  subroutine test_user_op()
    integer :: op, values(3), result(3)
    external :: max_abs
    call MPI_Op_create(max_abs, .true., op, ierr)
    values = [rank, -rank * 2, 1]
    call MPI_Allreduce(values, result, 3, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
    call check(all(result == [nprocs - 1, 2 * (nprocs - 1), 1]), 'user op allreduce')
    call MPI_Op_free(op, ierr)
    call check(op == MPI_OP_NULL, 'op_free nulls the handle')
  end subroutine test_user_op

  subroutine test_attributes()
    integer(kind=MPI_ADDRESS_KIND) :: value, extra
    integer :: keyval, dup
    logical :: flag
    integer :: deletes
    common /keyval_state/ deletes
    external :: copy_plus_one, delete_count
    call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, value, flag, ierr)
    call check(flag .and. value >= 32767, 'MPI_TAG_UB')
    extra = 0
    call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, keyval, extra, ierr)
    value = 1234567890123_MPI_ADDRESS_KIND
    call MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, value, ierr)
    call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
    value = 0
    call MPI_Comm_get_attr(dup, keyval, value, flag, ierr)
    call check(flag .and. value == 1234567890123_MPI_ADDRESS_KIND, 'attribute copied by MPI_COMM_DUP_FN')
    call MPI_Comm_free(dup, ierr)
    call MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval, ierr)
    call MPI_Comm_free_keyval(keyval, ierr)
    ! Copy and delete procedures written in Fortran.
    deletes = 0
    extra = 1000
    call MPI_Comm_create_keyval(copy_plus_one, delete_count, keyval, extra, ierr)
    value = 41
    call MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, value, ierr)
    call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
    call MPI_Comm_get_attr(dup, keyval, value, flag, ierr)
    call check(flag .and. value == 1042, 'a Fortran copy procedure with its extra_state')
    call MPI_Comm_free(dup, ierr)
    call check(deletes == 1, 'a Fortran delete procedure on comm_free')
    call MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval, ierr)
    call check(deletes == 2, 'a Fortran delete procedure on delete_attr')
    call MPI_Comm_free_keyval(keyval, ierr)
  end subroutine test_attributes

  ! MPI-1's calls with INTEGER addresses, and queries that give handles and strings back.
  subroutine test_mpi1_and_queries()
    integer :: a(2), address0, address1, extent, lb, ub, newtype, hv, handler
    integer :: blocks(2), displs(2), types(2), ints(8), datatypes(4), ni, na, nd, combiner
    integer(kind=MPI_ADDRESS_KIND) :: addresses(4)
    integer :: fh, etype, filetype
    integer(kind=MPI_OFFSET_KIND) :: disp
    character(len=MPI_MAX_DATAREP_STRING) :: datarep
    character(len=64) :: filename
    ! An address fits an INTEGER only below 2 GiB: elsewhere the call fails, MPI_ERR_ARG.
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    call MPI_Address(a(1), address0, ierr)
    call MPI_Address(a(2), address1, ierr)
    if (ierr == MPI_SUCCESS) call check(address1 - address0 == 4, 'MPI_Address')
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)
    call MPI_Type_extent(MPI_DOUBLE_PRECISION, extent, ierr)
    call check(extent == 8, 'MPI_Type_extent')
    blocks = [1, 2]
    displs = [0, 8]
    types = [MPI_DOUBLE_PRECISION, MPI_INTEGER]
    call MPI_Type_struct(2, blocks, displs, types, newtype, ierr)
    call MPI_Type_lb(newtype, lb, ierr)
    call MPI_Type_ub(newtype, ub, ierr)
    call check(lb == 0 .and. ub == 16, 'MPI_Type_struct bounds')
    call MPI_Type_free(newtype, ierr)
    call MPI_Type_vector(3, 2, 4, MPI_REAL, newtype, ierr)
    call MPI_Type_get_envelope(newtype, ni, na, nd, combiner, ierr)
    call check(combiner == MPI_COMBINER_VECTOR .and. ni == 3 .and. nd == 1, 'vector envelope')
    call MPI_Type_get_contents(newtype, ni, na, nd, ints, addresses, datatypes, ierr)
    call check(ierr == MPI_SUCCESS .and. all(ints(1:3) == [3, 2, 4]) .and. datatypes(1) == MPI_REAL, &
               'MPI_Type_get_contents')
    call MPI_Type_free(newtype, ierr)
    call MPI_Type_hvector(2, 1, 16, MPI_INTEGER, hv, ierr)
    call MPI_Type_extent(hv, extent, ierr)
    call check(extent == 20, 'MPI_Type_hvector extent')
    call MPI_Type_free(hv, ierr)
    call MPI_Errhandler_get(MPI_COMM_WORLD, handler, ierr)
    call check(handler == MPI_ERRORS_ARE_FATAL, 'MPI_Errhandler_get')
    call MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    call MPI_Errhandler_set(MPI_COMM_WORLD, handler, ierr)
    call MPI_Errhandler_free(handler, ierr)
    write (filename, '(a,i0,a)') 'zmpi_fortran_view_', nprocs, '.dat'
    call MPI_File_open(MPI_COMM_WORLD, trim(filename), MPI_MODE_CREATE + MPI_MODE_RDWR + MPI_MODE_DELETE_ON_CLOSE, &
                       MPI_INFO_NULL, fh, ierr)
    disp = 0
    call MPI_File_set_view(fh, disp, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
    call MPI_File_get_view(fh, disp, etype, filetype, datarep, ierr)
    call check(ierr == MPI_SUCCESS .and. datarep == 'native' .and. etype == MPI_INTEGER, 'MPI_File_get_view')
    call MPI_File_close(fh, ierr)
  end subroutine test_mpi1_and_queries

  ! Nonblocking collectives, shared-memory split, indexed and subarray types, strings out.
  subroutine test_more()
    integer :: request, shared, shared_size, indexed, subarray, size, length, i
    integer :: sum, values(10), sizes(2), subsizes(2), starts(2), status(MPI_STATUS_SIZE)
    character(len=MPI_MAX_PROCESSOR_NAME) :: host
    character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version
    logical :: flag
    call MPI_Iallreduce(rank + 1, sum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, request, ierr)
    call MPI_Wait(request, status, ierr)
    call check(sum == nprocs * (nprocs + 1) / 2 .and. request == MPI_REQUEST_NULL, 'iallreduce + wait')
    values = rank
    call MPI_Ibcast(values, 10, MPI_INTEGER, 0, MPI_COMM_WORLD, request, ierr)
    flag = .false.
    do while (.not. flag)
      call MPI_Test(request, flag, MPI_STATUS_IGNORE, ierr)
    end do
    call check(all(values == 0), 'ibcast + test')
    call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, shared, ierr)
    call MPI_Comm_size(shared, shared_size, ierr)
    call check(shared_size == nprocs, 'split_type shared: one host')
    call MPI_Comm_free(shared, ierr)
    call MPI_Type_indexed(2, [1, 2], [0, 5], MPI_INTEGER, indexed, ierr)
    call MPI_Type_size(indexed, size, ierr)
    call check(size == 12, 'indexed size')
    call MPI_Type_free(indexed, ierr)
    sizes = [4, 6]
    subsizes = [2, 3]
    starts = [1, 2]
    call MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INTEGER, subarray, ierr)
    call MPI_Type_size(subarray, size, ierr)
    call check(size == 24, 'subarray size')
    call MPI_Type_free(subarray, ierr)
    call MPI_Get_processor_name(host, length, ierr)
    call check(length > 0 .and. len_trim(host) == length, 'processor name')
    call MPI_Get_library_version(version, length, ierr)
    call check(length > 0, 'library version')
    do i = 1, 3  ! a short variable takes the first characters
      call MPI_Get_processor_name(host(1:2), length, ierr)
    end do
    call check(ierr == MPI_SUCCESS, 'processor name into a short variable')
  end subroutine test_more

  ! A generalized request whose callbacks are Fortran procedures: query fills the status at
  ! completion, free runs once when the request goes.
  subroutine test_grequest()
    integer :: request, status(MPI_STATUS_SIZE), count, greq_frees
    integer(kind=MPI_ADDRESS_KIND) :: extra
    logical :: flag
    external :: greq_query, greq_free, greq_cancel
    common /greq_state/ greq_frees
    greq_frees = 0
    extra = 42
    call MPI_Grequest_start(greq_query, greq_free, greq_cancel, extra, request, ierr)
    call check(ierr == MPI_SUCCESS, 'grequest start')
    call MPI_Test(request, flag, status, ierr)
    call check(.not. flag, 'grequest pending until completed')
    call MPI_Grequest_complete(request, ierr)
    call MPI_Wait(request, status, ierr)
    call MPI_Get_count(status, MPI_INTEGER, count, ierr)
    call check(request == MPI_REQUEST_NULL .and. status(MPI_TAG) == 42 .and. count == 3, &
               'grequest query fills the status')
    call check(greq_frees == 1, 'grequest free procedure ran once')
  end subroutine test_grequest

end program suite

subroutine count_error(comm, code)
  implicit none
  integer :: comm, code
  integer :: handler_calls
  common /handler_state/ handler_calls
  handler_calls = handler_calls + 1
end subroutine count_error

! Elementwise maximum of absolute values (commutative).
subroutine max_abs(invec, inoutvec, len, datatype)
  implicit none
  integer :: len, datatype, i
  integer :: invec(len), inoutvec(len)
  do i = 1, len
    inoutvec(i) = max(abs(invec(i)), abs(inoutvec(i)))
  end do
end subroutine max_abs

! Copies an attribute as its value + 1 + extra_state.
subroutine copy_plus_one(oldcomm, keyval, extra_state, value_in, value_out, flag, ierr)
#ifdef ZMPI_USE_MODULE
  use mpi
#endif
  implicit none
#ifndef ZMPI_USE_MODULE
  include 'mpif.h'
#endif
  integer :: oldcomm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: extra_state, value_in, value_out
  logical :: flag
  value_out = value_in + 1 + extra_state
  flag = .true.
  ierr = MPI_SUCCESS
end subroutine copy_plus_one

! Counts the deletions of attributes.
subroutine delete_count(comm, keyval, value, extra_state, ierr)
#ifdef ZMPI_USE_MODULE
  use mpi
#endif
  implicit none
#ifndef ZMPI_USE_MODULE
  include 'mpif.h'
#endif
  integer :: comm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: value, extra_state
  integer :: deletes
  common /keyval_state/ deletes
  deletes = deletes + 1
  ierr = MPI_SUCCESS
end subroutine delete_count

! Generalized request callbacks: the status says tag = extra_state, 3 integers.
subroutine greq_query(extra_state, status, ierr)
#ifdef ZMPI_USE_MODULE
  use mpi
#endif
  implicit none
#ifndef ZMPI_USE_MODULE
  include 'mpif.h'
#endif
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  integer :: status(MPI_STATUS_SIZE), ierr
  status(MPI_SOURCE) = MPI_UNDEFINED
  status(MPI_TAG) = int(extra_state)
  call MPI_Status_set_elements(status, MPI_INTEGER, 3, ierr)
  call MPI_Status_set_cancelled(status, .false., ierr)
end subroutine greq_query

subroutine greq_free(extra_state, ierr)
#ifdef ZMPI_USE_MODULE
  use mpi
#endif
  implicit none
#ifndef ZMPI_USE_MODULE
  include 'mpif.h'
#endif
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  integer :: ierr, greq_frees
  common /greq_state/ greq_frees
  greq_frees = greq_frees + 1
  ierr = MPI_SUCCESS
end subroutine greq_free

subroutine greq_cancel(extra_state, complete, ierr)
#ifdef ZMPI_USE_MODULE
  use mpi
#endif
  implicit none
#ifndef ZMPI_USE_MODULE
  include 'mpif.h'
#endif
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  logical :: complete
  integer :: ierr
  ierr = MPI_SUCCESS
end subroutine greq_cancel
