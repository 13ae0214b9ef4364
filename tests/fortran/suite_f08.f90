! The tour of suite_legacy.F90 through `use mpi_f08`: Open MPI's own module library
! (libmpi_usempif08.so.40) makes the calls, loaded on top of zmpi's libmpi_mpifh.so.40.
! Point to point, nonblocking calls, collectives (MPI_IN_PLACE too), derived datatypes,
! communicators, a Cartesian topology, one-sided calls, MPI-IO, error handlers, user ops,
! attributes. Rank 0 prints "PASS" when every rank's checks held.
module suite_f08_callbacks
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  integer :: handler_calls = 0
  integer :: deletes = 0
contains
  subroutine copy_plus_one(oldcomm, keyval, extra_state, value_in, value_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, value_in, value_out
    logical :: flag
    value_out = value_in + 1 + extra_state
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine copy_plus_one

  subroutine delete_count(comm, keyval, value, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: value, extra_state
    deletes = deletes + 1
    ierror = MPI_SUCCESS
  end subroutine delete_count

  subroutine count_error(comm, code)
    type(MPI_Comm) :: comm
    integer :: code
    handler_calls = handler_calls + 1
  end subroutine count_error

  ! Elementwise maximum of absolute values (commutative).
  subroutine max_abs(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = max(abs(a), abs(b))
  end subroutine max_abs
end module suite_f08_callbacks

program suite
  use mpi_f08
  use suite_f08_callbacks
  implicit none
  integer :: rank, nprocs, failures, total

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  failures = 0

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

  call MPI_Allreduce(failures, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0) then
    if (total == 0) then
      print '(a,i0,a)', 'fortran f08 suite on ', nprocs, ' ranks: PASS'
    else
      print '(a,i0,a)', 'fortran f08 suite: ', total, ' checks FAILED'
    end if
  end if
  call MPI_Finalize()
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
    integer :: value, i, count, seen, ierr
    type(MPI_Status) :: status
    double precision :: d(3)
    if (rank == 0) then
      seen = 0
      do i = 1, nprocs - 1
        call MPI_Recv(value, 1, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
        call check(ierr == MPI_SUCCESS, 'recv any source')
        call check(value == 100 + status%MPI_SOURCE, 'value from its source')
        call check(status%MPI_TAG == 7 + status%MPI_SOURCE, 'status tag')
        call MPI_Get_count(status, MPI_INTEGER, count)
        call check(count == 1, 'get_count')
        seen = seen + status%MPI_SOURCE
      end do
      call check(seen == nprocs * (nprocs - 1) / 2, 'every source once')
    else
      call MPI_Send(100 + rank, 1, MPI_INTEGER, 0, 7 + rank, MPI_COMM_WORLD)
    end if
    call MPI_Barrier(MPI_COMM_WORLD)
    d = rank
    call MPI_Sendrecv_replace(d, 3, MPI_DOUBLE_PRECISION, mod(rank + 1, nprocs), 1, &
                              mod(rank + nprocs - 1, nprocs), 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    call check(all(d == mod(rank + nprocs - 1, nprocs)), 'sendrecv_replace ring')
  end subroutine test_p2p

  subroutine test_nonblocking()
    type(MPI_Request) :: requests(2 * nprocs)
    type(MPI_Status) :: statuses(2 * nprocs)
    integer :: inbox(nprocs), outbox(nprocs), i, n, index
    logical :: flag
    n = 0
    do i = 0, nprocs - 1
      outbox(i + 1) = rank * 1000 + i
      n = n + 1
      call MPI_Irecv(inbox(i + 1), 1, MPI_INTEGER, i, 3, MPI_COMM_WORLD, requests(n))
      n = n + 1
      call MPI_Isend(outbox(i + 1), 1, MPI_INTEGER, i, 3, MPI_COMM_WORLD, requests(n))
    end do
    call MPI_Waitall(n, requests, statuses)
    call check(all(requests(1:n) == MPI_REQUEST_NULL), 'waitall nulls the requests')
    do i = 0, nprocs - 1
      call check(inbox(i + 1) == i * 1000 + rank, 'nonblocking payload')
      call check(statuses(2 * i + 1)%MPI_SOURCE == i, 'waitall status source')
    end do
    call MPI_Irecv(inbox(1), 1, MPI_INTEGER, mod(rank + 1, nprocs), 4, MPI_COMM_WORLD, requests(1))
    call MPI_Isend(rank, 1, MPI_INTEGER, mod(rank + nprocs - 1, nprocs), 4, MPI_COMM_WORLD, requests(2))
    call MPI_Waitany(2, requests, index, MPI_STATUS_IGNORE)
    call check(index == 1 .or. index == 2, 'waitany index is 1-based')
    call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE)
    call check(inbox(1) == mod(rank + 1, nprocs), 'waitany payload')
    call MPI_Test(requests(1), flag, MPI_STATUS_IGNORE)
    call check(flag, 'test of a null request is true')
  end subroutine test_nonblocking

  subroutine test_collectives()
    integer :: i, v, root
    type(MPI_Request) :: request
    integer :: vals(nprocs), counts(nprocs), displs(nprocs), many(2 * nprocs), back(nprocs * nprocs)
    double precision :: x(4), y(4)
    root = nprocs - 1
    call MPI_Barrier(MPI_COMM_WORLD)
    v = -1
    if (rank == root) v = 42
    call MPI_Bcast(v, 1, MPI_INTEGER, root, MPI_COMM_WORLD)
    call check(v == 42, 'bcast')
    x = rank + 1
    call MPI_Reduce(x, y, 4, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD)
    if (rank == 0) call check(all(y == nprocs * (nprocs + 1) / 2), 'reduce')
    call MPI_Allreduce(x, y, 4, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD)
    call check(all(y == nprocs), 'allreduce max')
    call MPI_Allreduce(MPI_IN_PLACE, x, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
    call check(all(x == nprocs * (nprocs + 1) / 2), 'allreduce in place')
    call MPI_Gather(rank, 1, MPI_INTEGER, vals, 1, MPI_INTEGER, root, MPI_COMM_WORLD)
    if (rank == root) call check(all(vals == [(i, i = 0, nprocs - 1)]), 'gather')
    vals = -1
    vals(rank + 1) = rank * 3
    call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, vals, 1, MPI_INTEGER, MPI_COMM_WORLD)
    call check(all(vals == [(3 * i, i = 0, nprocs - 1)]), 'allgather in place')
    counts = [(i + 1, i = 0, nprocs - 1)]
    displs(1) = 0
    do i = 2, nprocs
      displs(i) = displs(i - 1) + counts(i - 1)
    end do
    many = rank
    back = -1
    call MPI_Allgatherv(many, rank + 1, MPI_INTEGER, back, counts, displs, MPI_INTEGER, MPI_COMM_WORLD)
    call check(back(displs(nprocs) + 1) == nprocs - 1 .and. back(1) == 0, 'allgatherv')
    back = [(i, i = 1, nprocs * nprocs)]
    many = -1
    call MPI_Scatterv(back, counts, displs, MPI_INTEGER, many, rank + 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
    call check(many(1) == displs(rank + 1) + 1, 'scatterv')
    do i = 1, nprocs
      many(i) = rank * 100 + i - 1
    end do
    call MPI_Alltoall(many, 1, MPI_INTEGER, back, 1, MPI_INTEGER, MPI_COMM_WORLD)
    call check(all(back(1:nprocs) == [(i * 100 + rank, i = 0, nprocs - 1)]), 'alltoall')
    many(1:nprocs) = 1
    call MPI_Reduce_scatter_block(many, v, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call check(v == nprocs, 'reduce_scatter_block')
    call MPI_Scan(rank + 1, v, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call check(v == (rank + 1) * (rank + 2) / 2, 'scan')
    call MPI_Iallreduce(rank + 1, v, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, request)
    call MPI_Wait(request, MPI_STATUS_IGNORE)
    call check(v == nprocs * (nprocs + 1) / 2 .and. request == MPI_REQUEST_NULL, 'iallreduce + wait')
  end subroutine test_collectives

  subroutine test_datatypes()
    type(MPI_Datatype) :: row, pair, resized
    integer :: blocks(2), size, i, count
    type(MPI_Datatype) :: types(2)
    integer(kind=MPI_ADDRESS_KIND) :: displs(2), base, address
    type(MPI_Status) :: status
    double precision :: matrix(3, 4)
    type pair_t
      integer :: tag
      double precision :: value
    end type pair_t
    type(pair_t) :: p(2), q(2)
    call MPI_Type_vector(4, 1, 3, MPI_DOUBLE_PRECISION, row)
    call MPI_Type_commit(row)
    call MPI_Type_size(row, size)
    call check(size == 32, 'vector size')
    matrix = reshape([(dble(i), i = 1, 12)], [3, 4])
    if (rank == 0) call MPI_Send(matrix(2, 1), 1, row, nprocs - 1, 11, MPI_COMM_WORLD)
    if (rank == nprocs - 1) then
      call MPI_Recv(matrix, 4, MPI_DOUBLE_PRECISION, 0, 11, MPI_COMM_WORLD, status)
      call check(all(matrix(:, 1) == [2d0, 5d0, 8d0]) .and. matrix(1, 2) == 11d0, 'vector row received')
    end if
    call MPI_Type_free(row)
    call check(row == MPI_DATATYPE_NULL, 'type_free nulls the handle')
    call MPI_Get_address(p(1)%tag, base)
    call MPI_Get_address(p(1)%value, address)
    blocks = 1
    displs = [0_MPI_ADDRESS_KIND, address - base]
    types = [MPI_INTEGER, MPI_DOUBLE_PRECISION]
    call MPI_Type_create_struct(2, blocks, displs, types, pair)
    call MPI_Type_create_resized(pair, 0_MPI_ADDRESS_KIND, int(storage_size(p(1)) / 8, MPI_ADDRESS_KIND), resized)
    call MPI_Type_free(pair)
    call MPI_Type_commit(resized)
    p = [pair_t(rank, rank * 0.5d0), pair_t(-rank, 1.5d0)]
    call MPI_Bcast(p, 2, resized, 0, MPI_COMM_WORLD)
    call check(p(1)%tag == 0 .and. p(2)%value == 1.5d0, 'struct bcast')
    call MPI_Sendrecv(p, 2, resized, mod(rank + 1, nprocs), 12, q, 2, resized, &
                      mod(rank + nprocs - 1, nprocs), 12, MPI_COMM_WORLD, status)
    call MPI_Get_count(status, resized, count)
    call check(count == 2, 'struct count')
    call MPI_Type_free(resized)
  end subroutine test_datatypes

  subroutine test_communicators()
    type(MPI_Comm) :: half, dup, sub
    type(MPI_Group) :: group, sub_group
    integer :: result, i, size, first, last
    character(len=MPI_MAX_OBJECT_NAME) :: name
    integer :: name_length
    call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), -rank, half)
    call MPI_Comm_size(half, size)
    call check(size == (nprocs + 1 - mod(rank, 2)) / 2, 'split size')
    call MPI_Comm_dup(MPI_COMM_WORLD, dup)
    call MPI_Comm_compare(dup, MPI_COMM_WORLD, result)
    call check(result == MPI_CONGRUENT, 'dup is congruent')
    call MPI_Comm_set_name(dup, 'fortran dup   ')
    call MPI_Comm_get_name(dup, name, name_length)
    call check(name == 'fortran dup' .and. name_length == 11, 'comm name')
    call MPI_Comm_group(MPI_COMM_WORLD, group)
    call MPI_Group_incl(group, 1, [0], sub_group)
    call MPI_Comm_create(MPI_COMM_WORLD, sub_group, sub)
    if (rank == 0) then
      call check(sub /= MPI_COMM_NULL, 'comm_create member')
      call MPI_Comm_free(sub)
    else
      call check(sub == MPI_COMM_NULL, 'comm_create non-member')
    end if
    call MPI_Group_free(sub_group)
    call MPI_Group_free(group)
    call MPI_Comm_free(half)
    call check(half == MPI_COMM_NULL, 'comm_free nulls the handle')
    call MPI_Comm_dup(dup, sub)
    first = sub%MPI_VAL
    call MPI_Comm_free(sub)
    do i = 1, 50
      call MPI_Comm_dup(dup, sub)
      last = sub%MPI_VAL
      call MPI_Comm_free(sub)
    end do
    call check(last == first, 'a freed communicator index is reused')
    call MPI_Comm_free(dup)
  end subroutine test_communicators

  subroutine test_cartesian()
    integer :: dims(2), coords(2), source, dest, cart_rank, row_size
    type(MPI_Comm) :: cart, row
    logical :: periods(2), got_periods(2)
    dims = 0
    call MPI_Dims_create(nprocs, 2, dims)
    periods = [.true., .false.]
    call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart)
    call MPI_Cart_coords(cart, rank, 2, coords)
    call MPI_Cart_rank(cart, coords, cart_rank)
    call check(cart_rank == rank, 'cart rank of coords')
    call MPI_Cart_get(cart, 2, dims, got_periods, coords)
    call check(got_periods(1) .and. .not. got_periods(2), 'cart_get periods')
    call MPI_Cart_shift(cart, 0, 1, source, dest)
    call MPI_Cart_rank(cart, [mod(coords(1) + 1, dims(1)), coords(2)], cart_rank)
    call check(dest == cart_rank, 'cart_shift periodic')
    call MPI_Cart_sub(cart, [.false., .true.], row)
    call MPI_Comm_size(row, row_size)
    call check(row_size == dims(2), 'cart_sub')
    call MPI_Comm_free(row)
    call MPI_Comm_free(cart)
  end subroutine test_cartesian

  subroutine test_one_sided()
    use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
    type(MPI_Win) :: win
    integer :: i, target, got
    type(c_ptr) :: base
    integer, pointer :: memory(:)
    integer, target :: window(nprocs)
    integer(kind=MPI_ADDRESS_KIND) :: bytes, disp
    window = -1
    bytes = 4 * nprocs
    call MPI_Win_create(window, bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
    call MPI_Win_fence(0, win)
    do i = 0, nprocs - 1
      disp = rank
      call MPI_Put(rank + 10, 1, MPI_INTEGER, i, disp, 1, MPI_INTEGER, win)
    end do
    call MPI_Win_fence(0, win)
    call check(all(window == [(i + 10, i = 0, nprocs - 1)]), 'put with fences')
    target = mod(rank + 1, nprocs)
    disp = 0
    call MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win)
    call MPI_Get(got, 1, MPI_INTEGER, target, disp, 1, MPI_INTEGER, win)
    call MPI_Win_unlock(target, win)
    call check(got == 10, 'get under a lock')
    call MPI_Win_free(win)
    call check(win == MPI_WIN_NULL, 'win_free nulls the handle')
    ! A window the library allocates, reached through a C pointer.
    bytes = 4 * nprocs
    call MPI_Win_allocate(bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, win)
    call c_f_pointer(base, memory, [nprocs])
    memory = -1
    call MPI_Win_fence(0, win)
    disp = rank
    call MPI_Put(rank * 7, 1, MPI_INTEGER, mod(rank + 1, nprocs), disp, 1, MPI_INTEGER, win)
    call MPI_Win_fence(0, win)
    call check(memory(mod(rank + nprocs - 1, nprocs) + 1) == 7 * mod(rank + nprocs - 1, nprocs), &
               'win_allocate + put')
    call MPI_Win_free(win)
  end subroutine test_one_sided

  subroutine test_io()
    type(MPI_File) :: fh
    type(MPI_Status) :: status
    integer :: values(4), back(4), count
    integer(kind=MPI_OFFSET_KIND) :: offset
    character(len=64) :: filename
    write (filename, '(a,i0,a)') 'zmpi_fortran_f08_io_', nprocs, '.dat'
    call MPI_File_open(MPI_COMM_WORLD, trim(filename), MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh)
    values = [rank, rank * 2, rank * 3, rank * 4]
    offset = rank * 16
    call MPI_File_write_at(fh, offset, values, 4, MPI_INTEGER, status)
    call MPI_Get_count(status, MPI_INTEGER, count)
    call check(count == 4, 'write_at count')
    call MPI_File_sync(fh)
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_File_sync(fh)
    offset = mod(rank + 1, nprocs) * 16
    call MPI_File_read_at_all(fh, offset, back, 4, MPI_INTEGER, MPI_STATUS_IGNORE)
    call check(back(4) == 4 * mod(rank + 1, nprocs), 'read_at_all')
    call MPI_File_close(fh)
    call check(fh == MPI_FILE_NULL, 'file_close nulls the handle')
    call MPI_Barrier(MPI_COMM_WORLD)
    if (rank == 0) call MPI_File_delete(trim(filename), MPI_INFO_NULL)
  end subroutine test_io

  subroutine test_errors()
    integer :: error_class, ierr
    type(MPI_Errhandler) :: handler
    type(MPI_Comm) :: bad_comm
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
    call MPI_Send(rank, 1, MPI_INTEGER, nprocs + 5, 0, MPI_COMM_WORLD, ierr)
    call MPI_Error_class(ierr, error_class)
    call check(error_class == MPI_ERR_RANK, 'send to a bad rank: MPI_ERR_RANK')
    bad_comm%MPI_VAL = 12345
    call MPI_Barrier(bad_comm, ierr)
    call MPI_Error_class(ierr, error_class)
    call check(error_class == MPI_ERR_COMM, 'invalid handle index gives MPI_ERR_COMM')
    call MPI_Comm_create_errhandler(count_error, handler)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler)
    call MPI_Send(rank, 1, MPI_INTEGER, -7, 0, MPI_COMM_WORLD, ierr)
    call check(handler_calls == 1, 'the Fortran error handler ran')
    call MPI_Errhandler_free(handler)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL)
  end subroutine test_errors

  subroutine test_user_op()
    type(MPI_Op) :: op
    integer :: values(3), result(3)
    call MPI_Op_create(max_abs, .true., op)
    values = [rank, -rank * 2, 1]
    call MPI_Allreduce(values, result, 3, MPI_INTEGER, op, MPI_COMM_WORLD)
    call check(all(result == [nprocs - 1, 2 * (nprocs - 1), 1]), 'user op allreduce')
    call MPI_Op_free(op)
    call check(op == MPI_OP_NULL, 'op_free nulls the handle')
  end subroutine test_user_op

  subroutine test_attributes()
    integer(kind=MPI_ADDRESS_KIND) :: value
    logical :: flag
    integer :: keyval
    integer(kind=MPI_ADDRESS_KIND) :: extra
    type(MPI_Comm) :: dup
    call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, value, flag)
    call check(flag .and. value >= 32767, 'MPI_TAG_UB')
    extra = 1000
    call MPI_Comm_create_keyval(copy_plus_one, delete_count, keyval, extra)
    value = 41
    call MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, value)
    call MPI_Comm_dup(MPI_COMM_WORLD, dup)
    call MPI_Comm_get_attr(dup, keyval, value, flag)
    call check(flag .and. value == 1042, 'a Fortran copy procedure with its extra_state')
    call MPI_Comm_free(dup)
    call check(deletes == 1, 'a Fortran delete procedure on comm_free')
    call MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval)
    call MPI_Comm_free_keyval(keyval)
  end subroutine test_attributes

end program suite
