! The Fortran test through `include 'mpif.h'` (the body, shared by all three bindings, is
! fortran_body.inc).
program fortran_mpif
  implicit none
  include 'mpif.h'
  character(*), parameter :: binding = 'mpif.h'
  integer :: req(2)
  include 'fortran_body.inc'
end program fortran_mpif
