! A Fortran 2008 program (use mpi_f08): its MPI_Alltoall (also in place) and MPI_Bcast
! must reach gridcoll's algorithms like C's. Checks every value it gets; the test script
! checks the log names the grid algorithm that ran.
program fortran_f08
  use mpi_f08
  implicit none
  integer :: ierr, rank, nprocs, i, j, root, bad
  integer, allocatable :: sendbuf(:), recvbuf(:)
  double precision :: x(4)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  allocate(sendbuf(2 * nprocs), recvbuf(2 * nprocs))
  bad = 0

  do i = 0, nprocs - 1
    do j = 1, 2
      sendbuf(2 * i + j) = 1000 * rank + 10 * i + j
    end do
  end do
  call MPI_Alltoall(sendbuf, 2, MPI_INTEGER, recvbuf, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS) bad = bad + 1
  do i = 0, nprocs - 1
    do j = 1, 2
      if (recvbuf(2 * i + j) /= 1000 * i + 10 * rank + j) bad = bad + 1
    end do
  end do

  ! In place: the data goes out of, and comes back into, recvbuf.
  recvbuf = sendbuf
  call MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recvbuf, 2, MPI_INTEGER, &
                    MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS) bad = bad + 1
  do i = 0, nprocs - 1
    do j = 1, 2
      if (recvbuf(2 * i + j) /= 1000 * i + 10 * rank + j) bad = bad + 1
    end do
  end do

  do root = 0, nprocs - 1
    x = -1.0d0
    if (rank == root) x = (/ 1.5d0, 2.5d0, 3.5d0, dble(root) /)
    call MPI_Bcast(x, 4, MPI_DOUBLE_PRECISION, root, MPI_COMM_WORLD, ierr)
    if (ierr /= MPI_SUCCESS) bad = bad + 1
    if (x(1) /= 1.5d0 .or. x(2) /= 2.5d0 .or. x(3) /= 3.5d0 .or. x(4) /= dble(root)) &
      bad = bad + 1
  end do

  call MPI_Allreduce(MPI_IN_PLACE, bad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (bad == 0) then
      print '(A,I0,A)', 'fortran mpi_f08: 0 failed, ', 2 + nprocs, ' calls per rank'
    else
      print '(A,I0,A)', 'fortran mpi_f08: ', bad, ' failed'
    end if
  end if
  call MPI_Finalize(ierr)
  if (bad /= 0) stop 1
end program fortran_f08
