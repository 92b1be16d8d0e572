! The Fortran test through `use mpi` (the body, shared by all three bindings, is
! fortran_body.inc).
program fortran
  use mpi
  implicit none
  character(*), parameter :: binding = 'use mpi'
  integer :: req(2)
  include 'fortran_body.inc'
end program fortran
