! The Fortran test through `use mpi_f08` (the body, shared by all three bindings, is
! fortran_body.inc).
program fortran_f08
  use mpi_f08
  implicit none
  character(*), parameter :: binding = 'mpi_f08'
  type(MPI_Request) :: req(2)
  include 'fortran_body.inc'
end program fortran_f08
